/**
 * Records packages/render-node/test/fixtures/v3-example-renders.json: the SHA-256 of what the engine of
 * commit d148a06 (the last before document v4) draws for every example template written as v3, every
 * frame, at scales 1 and 2. Run once from a checkout of that commit:
 *
 *   PICTOR_CHECKOUT="$PWD" node scripts/v3-example-renders.ts
 *
 * packages/render-node/test/v3-identity.test.ts then requires today's engine to draw the same bytes
 * after migrating each example to the current version. The v1 and v2 examples are covered by the
 * v2 fixture, which today's engine also draws after migrating them through every step to the current
 * version.
 */
import { createEngine } from "../packages/engine/src/index.ts";
import { loadFontSet } from "../packages/fonts/src/index.ts";
import { loadCanvasKit } from "../packages/render-node/src/canvaskit.ts";
import { loadIconSet } from "../packages/render-node/src/icons.ts";
import { recordExampleRenders } from "./example-renders.ts";

await recordExampleRenders({
  engine: createEngine({
    canvasKit: await loadCanvasKit(),
    fonts: await loadFontSet(),
    icons: await loadIconSet(),
  }),
  fixture: "v3-example-renders.json",
  engineLabel: "d148a06 (the last commit before document v4)",
  includes: (raw) => raw.version === 3,
});
