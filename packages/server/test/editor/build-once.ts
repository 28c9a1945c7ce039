import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { buildEditor, editorTestDistDir } from "@pictor/editor";

/**
 * The editor build for the end-to-end tests, once per source state: the test entry (the app plus the
 * `window.__pictor` bridge the tests read) into packages/editor/dist-test, which the harness's server
 * serves (PICTOR_EDITOR_DIR), and the engine bundle. Several e2e files may start together (one per
 * worker), and a Vite build empties the dist another file's server is serving. The first file to take
 * the lock builds and stamps the dist with a hash of the sources; the others wait for the lock and find
 * the stamp current. A stale stamp (sources edited) rebuilds.
 */
function sourcesHash(repoRoot: string): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === "node_modules" || name === "dist") continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(path).update(readFileSync(path));
    }
  };
  for (const dir of ["packages/editor/src", "packages/engine/src", "packages/engine/browser"])
    walk(join(repoRoot, dir));
  for (const file of [
    "packages/editor/index.html",
    "packages/editor/vite.config.ts",
    "packages/editor/build.ts",
  ])
    hash.update(readFileSync(join(repoRoot, file)));
  return hash.digest("hex");
}

export async function buildEditorOnce(repoRoot: string): Promise<void> {
  const stamp = join(editorTestDistDir, ".e2e-sources");
  const lock = join(repoRoot, "packages/editor/.e2e-build.lock");
  const wanted = sourcesHash(repoRoot);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another file builds; a lock older than 5 minutes was left by a killed run.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000)
        rmSync(lock, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    const current = existsSync(stamp) ? readFileSync(stamp, "utf8") : "";
    const bundle = join(repoRoot, "packages/engine/dist/pictor-engine.browser.js");
    if (current !== wanted || !existsSync(bundle)) {
      await buildEditor({ testBridge: true });
      writeFileSync(stamp, wanted);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
