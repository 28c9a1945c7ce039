/**
 * Records packages/render-node/test/fixtures/v2-example-renders.json: the SHA-256 of what the engine of
 * commit b1c8e8e (the last before document v3) draws for every example template (v1 and v2), every
 * frame, at scales 1 and 2. Run once from a checkout of that commit:
 *
 *   PICTOR_CHECKOUT="$PWD" node scripts/v2-example-renders.ts
 *
 * packages/render-node/test/v2-identity.test.ts then requires today's engine to draw the same bytes
 * after migrating each example to the current version.
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
  fixture: "v2-example-renders.json",
  engineLabel: "b1c8e8e (the last commit before document v3)",
  includes: () => true,
});
