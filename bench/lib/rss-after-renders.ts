/**
 * One side of `npm run bench:memory-takumi`, run as a fresh child process: renders the reference scene
 * to PNG 200 times at scale 1 and 20 times at scale 4 (a different headline each time), reads its
 * resident memory at once and again `waitMs` later, and prints the readings as JSON.
 *
 *   node bench/lib/rss-after-renders.ts <pictor|takumi> <photo.jpg> [waitMs]
 *
 * `pictor` is one renderer as a render thread makes it (packages/render-node, default options: the
 * prepared-image cache serves the unchanged photo, a grown WebAssembly heap is recycled and the C heap
 * trimmed once idle; `BENCH_RSS_PICTOR_OPTIONS`, JSON, passes other renderer options to compare);
 * `takumi` is @takumi-rs/core with the same Inter faces, its decoded-image cache on.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { FONT_FACES, fontFilePath } from "@pictor/fonts";
import type { NodeRendererOptions } from "@pictor/render-node";
import { readReferenceScene } from "./reference-scene.ts";

export const SCALE_1_RENDERS = 200;
export const SCALE_4_RENDERS = 20;

export interface ResidentReading {
  /** process.memoryUsage().rss, MiB. */
  rssMiB: number;
  /** /proc/self/status: anonymous pages (heaps, wasm memory) and file pages (mapped code), MiB. */
  anonMiB: number;
  fileMiB: number;
  /** V8's heap in use and the bytes of ArrayBuffers (a wasm Memory counts here), MiB. */
  heapUsedMiB: number;
  arrayBuffersMiB: number;
}

export interface RssAfterRenders {
  side: "pictor" | "takumi";
  atOnce: ResidentReading;
  later: ResidentReading;
  waitMs: number;
  renderMs: number;
  /** Pictor only: how often the renderer moved to a fresh CanvasKit heap and trimmed the C heap. */
  recycles?: number;
  trims?: number;
}

const MIB = 1024 * 1024;

function reading(): ResidentReading {
  const usage = process.memoryUsage();
  const status = readFileSync("/proc/self/status", "utf8");
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return {
    rssMiB: usage.rss / MIB,
    anonMiB: kib("RssAnon") / 1024,
    fileMiB: kib("RssFile") / 1024,
    heapUsedMiB: usage.heapUsed / MIB,
    arrayBuffersMiB: usage.arrayBuffers / MIB,
  };
}

type Render = (headline: string, scale: number) => Promise<unknown>;

async function pictorSide(photo: Uint8Array) {
  const { createNodeRenderer } = await import("@pictor/render-node");
  const document = await readReferenceScene();
  // Options to compare (`{"recycle":false}`, `{"trimNativeHeap":false}`); the bench itself sets none.
  const options = JSON.parse(process.env.BENCH_RSS_PICTOR_OPTIONS || "{}") as NodeRendererOptions;
  const renderer = await createNodeRenderer(options);
  const render: Render = (headline, scale) =>
    renderer.render(document, {
      frame: "og",
      values: { ...document.sample, headline },
      scale,
      format: "png",
      loadImage: async () => photo,
      // An uploaded asset is immutable: the host's prepared-image cache serves it, as in a render thread.
      sourceIdentity: (src) => src,
    });
  return { render, counts: () => ({ recycles: renderer.recycles, trims: renderer.trims }) };
}

async function takumiSide(photo: Uint8Array) {
  const [{ takumiRenderer }, document] = await Promise.all([
    import("../baselines/takumi.ts"),
    readReferenceScene(),
  ]);
  const faces = await Promise.all(
    ([400, 700] as const).map(async (weight) => {
      const face = FONT_FACES.find(
        (f) => f.family === "Inter" && f.weight === weight && f.style === "normal",
      );
      if (!face) throw new Error(`Inter ${weight} is not in the shipped font set`);
      return { name: "Inter", weight, bytes: new Uint8Array(await readFile(fontFilePath(face))) };
    }),
  );
  const takumi = await takumiRenderer(faces);
  const body = String(document.sample?.body ?? "");
  const render: Render = (headline, scale) => takumi({ headline, body }, photo, { scale });
  return { render, counts: () => ({}) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const side = process.argv[2] === "takumi" ? "takumi" : "pictor";
  const photo = new Uint8Array(await readFile(process.argv[3] ?? ""));
  const waitMs = Number(process.argv[4] ?? 15_000);
  const document = await readReferenceScene();
  const headline = String(document.sample?.headline ?? "");
  const { render, counts } = side === "pictor" ? await pictorSide(photo) : await takumiSide(photo);
  const started = performance.now();
  for (let i = 0; i < SCALE_1_RENDERS; i++) await render(`${headline} ${i}`, 1);
  for (let i = 0; i < SCALE_4_RENDERS; i++) await render(`${headline} ${SCALE_1_RENDERS + i}`, 4);
  const renderMs = performance.now() - started;
  const atOnce = reading();
  // A benchmark, not a test: what a process holds a while after its work is the figure wanted.
  await sleep(waitMs);
  const later = reading();
  const result: RssAfterRenders = { side, atOnce, later, waitMs, renderMs, ...counts() };
  console.log(JSON.stringify(result));
  process.exit(0);
}
