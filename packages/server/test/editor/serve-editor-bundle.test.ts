import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { exited, scratchForPictor, spawnServe } from "../cli/serve-process.ts";

// pictor serve never builds the editor on a request: it builds before listening (packages/editor
// build.ts ensureEditorBuilt, tested there) or serves what it has. A build named by PICTOR_EDITOR_DIR
// (the end-to-end tests' test entry) is served as it is, never built.
const { dir, children } = scratchForPictor("pictor-editor-bundle-");

async function serveWith(editorDir: string) {
  const env = { ...process.env, PICTOR_LOG_LEVEL: "warn", PICTOR_EDITOR_DIR: editorDir };
  return spawnServe(join(dir, `data-${children.length}`), env, children);
}

it("answers / with a 503 page saying what to run when it has no editor bundle, and says so at start", async () => {
  const empty = join(dir, "no-editor");
  mkdirSync(empty);
  const serve = await serveWith(empty);
  await vi.waitFor(() =>
    expect(serve.stderr()).toContain(`PICTOR_EDITOR_DIR ${empty} holds no built editor`),
  );
  const res = await fetch(`${serve.url}/`);
  expect(res.status).toBe(503);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
  const page = await res.text();
  expect(page).toContain("The editor is not built");
  expect(page).toContain("npm run build");
  // Nothing was built into the directory, and the API answers as ever.
  expect((await fetch(`${serve.url}/assets/index.js`)).status).toBe(404);
  expect((await fetch(`${serve.url}/v1/templates`)).status).toBe(401);
  serve.child.kill("SIGTERM");
  expect((await exited(serve.child)).code).toBe(0);
});

it("serves the editor build PICTOR_EDITOR_DIR names as it is", async () => {
  const built = join(dir, "test-entry");
  mkdirSync(join(built, "assets"), { recursive: true });
  writeFileSync(join(built, "index.html"), "<!doctype html><title>the test entry</title>\n");
  writeFileSync(join(built, "assets", "index-abc.js"), "window.__pictor = {};\n");
  const serve = await serveWith(built);
  const page = await fetch(`${serve.url}/`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("the test entry");
  const script = await fetch(`${serve.url}/assets/index-abc.js`);
  expect(script.headers.get("cache-control")).toContain("immutable");
  expect(await script.text()).toContain("__pictor");
  expect(serve.stderr()).not.toContain("editor");
  serve.child.kill("SIGTERM");
  await exited(serve.child);
});
