/**
 * Records packages/render-node/test/fixtures/v1-example-renders.json: the SHA-256 of what the engine of
 * commit 36d9774 (the last before document v2) draws for every v1 example, every frame, at scales 1
 * and 2. Run once from a worktree of that commit, which shares this checkout's node_modules:
 *
 *   git worktree add /tmp/v1tree 36d9774 && ln -s "$PWD/node_modules" /tmp/v1tree/node_modules
 *   cp scripts/v1-example-renders.ts scripts/example-renders.ts /tmp/v1tree/scripts/
 *   (cd /tmp/v1tree && PICTOR_CHECKOUT="$OLDPWD" node scripts/v1-example-renders.ts)
 *
 * packages/render-node/test/v1-identity.test.ts then requires today's engine to draw the same bytes.
 */
import { createEngine } from "../packages/engine/src/index.ts";
import { loadFontSet } from "../packages/fonts/src/index.ts";
import { loadCanvasKit } from "../packages/render-node/src/canvaskit.ts";
import { recordExampleRenders } from "./example-renders.ts";

await recordExampleRenders({
  engine: createEngine({ canvasKit: await loadCanvasKit(), fonts: await loadFontSet() }),
  fixture: "v1-example-renders.json",
  engineLabel: "36d9774 (the last commit before document v2)",
  includes: (raw) => raw.version === 1,
});
