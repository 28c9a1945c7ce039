import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";

/**
 * One render path: every entry point accepts renders through RenderService, and only the service
 * submits to or waits on a RenderDispatcher (adapters implement it; the serve root hands it over).
 */
const SRC = join(import.meta.dirname, "../../src");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

it("no module but app/render-service.ts calls a dispatcher's submit or wait", () => {
  const callers = sources(SRC)
    .map((file) => relative(SRC, file))
    .filter((file) => !file.startsWith("adapters/") && file !== "app/render-service.ts")
    .filter((file) => /dispatcher\s*\??\.\s*(submit|wait)\s*\(/.test(readFileSync(join(SRC, file), "utf8")));
  expect(callers).toEqual([]);
});

it("the routes that render, batches and on-demand URLs go through the render service", () => {
  for (const file of [
    "http/routes/render-create.ts",
    "http/routes/batch-create.ts",
    "app/on-demand-images.ts",
  ]) {
    const text = readFileSync(join(SRC, file), "utf8");
    expect(text, file).toMatch(/renderService\.(submit|submitBatch)\(/);
    expect(text, file).not.toMatch(/prepareRender|\.accept\(/);
  }
});
