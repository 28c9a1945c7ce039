import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneAtATime } from "../src/native-work.ts";
import { createNodeRenderer, type NodeRenderer } from "../src/renderer.ts";

const certificateFile = resolve(import.meta.dirname, "../../../examples/templates/certificate.json");
const certificate = JSON.parse(readFileSync(certificateFile, "utf8"));
const loadImage = (src: string) => readFile(resolve(dirname(certificateFile), src));

describe("oneAtATime", () => {
  it("starts each piece once the one before has settled, in arrival order, failures included", async () => {
    const native = oneAtATime();
    const log: string[] = [];
    let running = 0;
    const piece = (name: string, fail = false) =>
      native.run(async () => {
        running++;
        log.push(`${name} starts with ${running} running`);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([piece("a"), piece("b", true), piece("c")]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(log).toEqual(["a starts with 1 running", "b starts with 1 running", "c starts with 1 running"]);
  });
});

describe("a renderer whose native work runs one at a time (a background render thread's)", () => {
  let plain: NodeRenderer;
  let background: NodeRenderer;
  beforeAll(async () => {
    [plain, background] = await Promise.all([
      createNodeRenderer({ cacheBytes: 16 * 1024 * 1024 }),
      createNodeRenderer({ cacheBytes: 16 * 1024 * 1024, nativeWork: oneAtATime() }),
    ]);
  });
  afterAll(() => {
    plain?.dispose();
    background?.dispose();
  });

  it("makes the same bytes: a PNG, and a PDF whose pages zlib compressed on the render thread", async () => {
    const values = certificate.sample;
    const createdAt = new Date("2026-03-01T12:00:00Z");
    const [a, b] = await Promise.all(
      [plain, background].map((r) => r.render(certificate, { values, format: "png", loadImage })),
    );
    expect(Buffer.compare(a?.bytes as Buffer, b?.bytes as Buffer)).toBe(0);
    const [p, q] = await Promise.all(
      [plain, background].map((r) => r.renderPdf(certificate, { values, loadImage, createdAt })),
    );
    expect(p?.bytes.byteLength).toBeGreaterThan(1000);
    expect(Buffer.from(p?.bytes as Uint8Array).equals(Buffer.from(q?.bytes as Uint8Array))).toBe(true);
  });
});
