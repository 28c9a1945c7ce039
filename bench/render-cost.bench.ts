/**
 * `node bench/render-cost.bench.ts`: the cost model (@pictor/render-node/cost over the engine's
 * estimateFrameCost) against real renders. Each document is rendered once, in a process of its own,
 * on a warm renderer (fonts and libvips loaded by a first small render), and the process's peak
 * resident memory (VmHWM, reset through /proc/self/clear_refs just before the render) is read over
 * its resident memory just before, with the size CanvasKit's heap reached. The estimate must never be
 * below the peak; the table (docs/deploy.md, "The per-render budget") says by how much it is above.
 * Linux only. `BENCH_COST_ONLY=<name part>` runs the matching cases alone. Writes
 * bench/results/render-cost.json.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateDocument } from "@pictor/engine";
import { createNodeRenderer, loadCanvasKit, type OutputFormat, wasmHeapBytes } from "@pictor/render-node";
import { estimateRenderCost } from "@pictor/render-node/cost";
import sharp from "sharp";
import { makeReferencePhoto } from "./lib/reference-photo.ts";

const MiB = 1024 * 1024;
const benchDir = dirname(fileURLToPath(import.meta.url));

type Source = "none" | "smooth-7000" | "noise-4000" | "reference";
interface Case {
  name: string;
  document: unknown;
  scale: number;
  format: OutputFormat | "pdf";
  source: Source;
  frames?: string[];
  /** Copy the frame out of the engine, as a thread with renders queued does. */
  copy?: boolean;
}

const doc = (key: string, width: number, height: number, layers: unknown[], background?: unknown) => ({
  version: 2,
  key,
  name: key,
  slots: [],
  frames: [{ name: "f", width, height, layers, ...(background ? { background } : {}) }],
});
const gradient = {
  type: "linear",
  angle: 90,
  stops: [
    { offset: 0, color: "#FF0000" },
    { offset: 1, color: "#0000FF" },
  ],
};
const card = doc("card", 1200, 630, [
  { id: "r", type: "shape", shape: "rectangle", x: 60, y: 60, width: 300, height: 200, fill: "#1F6FEB" },
  {
    id: "t",
    type: "text",
    x: 60,
    y: 300,
    width: 1000,
    height: 120,
    text: "Still rendering",
    color: "#111111",
    font: { family: "Inter", size: 64, weight: 700 },
  },
]);
const photo = (size: number) => ({
  id: "p",
  type: "image",
  x: 0,
  y: 0,
  width: size,
  height: size,
  src: "photo",
});
const shadowedText = (rotation = 0) =>
  doc("text", 4000, 2000, [
    {
      id: "t",
      type: "text",
      x: 500,
      y: 500,
      width: 3000,
      height: 1000,
      rotation,
      text: "Shadowed headline text here",
      color: "#112233",
      font: { family: "Inter", size: 300 },
      shadows: [{ x: 10, y: 10, blur: 40, color: "#000000" }],
    },
  ]);
const square = { id: "r", type: "shape", shape: "rectangle", x: 0, y: 0, width: 6000, height: 6000 };
const pdfPages = {
  version: 2,
  key: "pdf",
  name: "pdf",
  slots: [],
  frames: [0, 1, 2, 3].map((n) => ({
    name: `p${n}`,
    width: 8000,
    height: 8000,
    layers: [{ ...photo(8000), id: `p${n}` }],
  })),
};

const CASES: Case[] = [
  { name: "card 1200x630", document: card, scale: 1, format: "png", source: "none" },
  { name: "card 1200x630", document: card, scale: 2, format: "png", source: "none" },
  { name: "card 1200x630", document: card, scale: 4, format: "png", source: "none" },
  { name: "card 1200x630", document: card, scale: 4, format: "webp", source: "none" },
  { name: "card 1200x630", document: card, scale: 4, format: "jpeg", source: "none" },
  {
    name: "photo 8000x8000, smooth source",
    document: doc("p", 8000, 8000, [photo(8000)]),
    scale: 1,
    format: "png",
    source: "smooth-7000",
  },
  {
    name: "the same, copied out",
    document: doc("p", 8000, 8000, [photo(8000)]),
    scale: 1,
    format: "png",
    source: "smooth-7000",
    copy: true,
  },
  {
    name: "the same",
    document: doc("p", 8000, 8000, [photo(8000)]),
    scale: 1,
    format: "webp",
    source: "smooth-7000",
  },
  {
    name: "photo 8000x8000, noise source",
    document: doc("p", 8000, 8000, [photo(8000)]),
    scale: 1,
    format: "png",
    source: "noise-4000",
  },
  {
    name: "image 600x600 from 49 MP",
    document: doc("s", 1200, 630, [photo(600)]),
    scale: 1,
    format: "png",
    source: "smooth-7000",
  },
  {
    name: "image 600x600 from 1.7 MP",
    document: doc("s", 1200, 630, [photo(600)]),
    scale: 1,
    format: "png",
    source: "reference",
  },
  {
    name: "image 4000x4000, mask, grayscale, border",
    document: doc("m", 4000, 4000, [
      {
        ...photo(4000),
        mask: { shape: "circle" },
        filters: { grayscale: 1 },
        border: { width: 20, color: "#FF0000" },
      },
    ]),
    scale: 1,
    format: "png",
    source: "smooth-7000",
  },
  {
    name: "shape 6000x6000, shadow blur 200",
    document: doc("ss", 8000, 8000, [
      {
        ...square,
        x: 1000,
        y: 1000,
        fill: "#3366CC",
        shadows: [{ x: 20, y: 20, blur: 200, color: "#00000080" }],
      },
    ]),
    scale: 1,
    format: "png",
    source: "none",
  },
  {
    name: "shape 6000x6000, blend multiply",
    document: doc("b", 6000, 6000, [{ ...square, fill: "#FF0000", blend_mode: "multiply" }]),
    scale: 1,
    format: "png",
    source: "none",
  },
  {
    name: "group 6000x6000 at opacity 0.5",
    document: doc("g", 6000, 6000, [
      {
        id: "g",
        type: "group",
        x: 0,
        y: 0,
        width: 6000,
        height: 6000,
        opacity: 0.5,
        layers: [
          { ...square, id: "a", width: 4000, height: 4000, fill: "#FF0000" },
          {
            ...square,
            id: "b",
            shape: "ellipse",
            x: 2000,
            y: 2000,
            width: 4000,
            height: 4000,
            fill: "#0000FF",
          },
        ],
      },
    ]),
    scale: 1,
    format: "png",
    source: "none",
  },
  {
    name: "group 6000x6000 with a shadow blur 100",
    document: doc("gs", 6000, 6000, [
      {
        id: "g",
        type: "group",
        x: 0,
        y: 0,
        width: 6000,
        height: 6000,
        shadows: [{ x: 10, y: 10, blur: 100, color: "#000000" }],
        layers: [{ ...square, id: "a", x: 500, y: 500, width: 4000, height: 4000, fill: "#FF0000" }],
      },
    ]),
    scale: 1,
    format: "png",
    source: "none",
  },
  {
    name: "line 5800x5800, shadow blur 100",
    document: doc("l", 6000, 6000, [
      {
        id: "l",
        type: "line",
        x: 100,
        y: 100,
        width: 5800,
        height: 5800,
        stroke: { width: 40, color: "#000000" },
        shadows: [{ x: 10, y: 10, blur: 100, color: "#000000" }],
      },
    ]),
    scale: 1,
    format: "png",
    source: "none",
  },
  {
    name: "text 3000x1000, shadow blur 40",
    document: shadowedText(),
    scale: 1,
    format: "png",
    source: "none",
  },
  { name: "the same", document: shadowedText(), scale: 2, format: "png", source: "none" },
  { name: "the same turned 10°", document: shadowedText(10), scale: 1, format: "png", source: "none" },
  {
    name: "gradient text 5000x2000",
    document: doc("gt", 6000, 3000, [
      {
        id: "t",
        type: "text",
        x: 500,
        y: 500,
        width: 5000,
        height: 2000,
        text: "Gradient",
        color: gradient,
        font: { family: "Inter", size: 400 },
      },
    ]),
    scale: 1,
    format: "png",
    source: "none",
  },
  {
    name: "gradient background 6000x6000",
    document: doc("gb", 6000, 6000, [], gradient),
    scale: 1,
    format: "png",
    source: "none",
  },
  {
    name: "issue 33's shadowed text 8000x8000",
    document: doc("heavy", 8000, 8000, [
      {
        id: "t",
        type: "text",
        x: 0,
        y: 0,
        width: 8000,
        height: 8000,
        text: "HELLO WORLD HELLO WORLD",
        color: "#112233",
        fit: "shrink",
        font: { family: "Inter", size: 2000 },
        stroke: { width: 200, color: "#FF0000" },
        shadows: [{ x: 10, y: 10, blur: 500, color: "#000000" }],
      },
    ]),
    scale: 1,
    format: "png",
    source: "none",
  },
  {
    name: "PDF, one 8000x8000 page of noise",
    document: pdfPages,
    scale: 1,
    format: "pdf",
    source: "noise-4000",
    frames: ["p0"],
  },
  {
    name: "PDF, four such pages",
    document: pdfPages,
    scale: 1,
    format: "pdf",
    source: "noise-4000",
    frames: ["p0", "p1", "p2", "p3"],
  },
];

async function sourceBytes(source: Source): Promise<Uint8Array | null> {
  if (source === "none") return null;
  const reference = Buffer.from(await makeReferencePhoto());
  if (source === "reference") return new Uint8Array(reference);
  if (source === "smooth-7000")
    return new Uint8Array(
      await sharp(reference).resize(7000, 7000, { fit: "fill" }).jpeg({ quality: 85 }).toBuffer(),
    );
  const noise = {
    width: 4000,
    height: 4000,
    channels: 3 as const,
    background: "#808080",
    noise: { type: "gaussian" as const, mean: 128, sigma: 60 },
  };
  return new Uint8Array(await sharp({ create: noise }).jpeg({ quality: 90 }).toBuffer());
}

function memory(): { rss: number; peak: number } {
  const status = readFileSync("/proc/self/status", "utf8");
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kib("VmRSS") * 1024, peak: kib("VmHWM") * 1024 };
}

/** One case, in this process (started by the driver below with `--case <index>`). */
async function runCase(index: number): Promise<void> {
  const c = CASES[index] as Case;
  const valid = validateDocument(c.document);
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  const bytes = await sourceBytes(c.source);
  const loadImage = async () => {
    if (!bytes) throw new Error("no image in this case");
    return bytes;
  };
  const renderer = await createNodeRenderer({ trimNativeHeap: false, recycle: false });
  const kit = await loadCanvasKit();
  // Warm: fonts, encoders and libvips (an image decoded and fitted).
  const warmJpeg = new Uint8Array(
    await sharp({ create: { width: 800, height: 600, channels: 3, background: "#808080" } })
      .jpeg()
      .toBuffer(),
  );
  await renderer.render(card, { format: "png", loadImage });
  await renderer.render(doc("w", 300, 200, [photo(100)]), { format: "png", loadImage: async () => warmJpeg });
  if (c.format === "pdf") await renderer.renderPdf(card, { loadImage });
  (globalThis as { gc?: () => void }).gc?.();
  const before = memory();
  writeFileSync("/proc/self/clear_refs", "5");
  const started = performance.now();
  if (c.format === "pdf")
    await renderer.renderPdf(c.document, {
      scale: c.scale,
      loadImage,
      ...(c.frames ? { frames: c.frames } : {}),
    });
  else
    await renderer.render(c.document, {
      scale: c.scale,
      format: c.format,
      loadImage,
      releaseEngineAfterDraw: c.copy === true,
    });
  const ms = performance.now() - started;
  const after = memory();
  const meta = bytes ? await sharp(Buffer.from(bytes)).metadata() : null;
  const estimate = estimateRenderCost(valid.document, {
    format: c.format,
    scale: c.scale,
    ...(c.frames ? { frames: c.frames } : {}),
    sourcePixels: () => (meta?.width && meta.height ? meta.width * meta.height : undefined),
  });
  process.stdout.write(
    `${JSON.stringify({
      peakMiB: (after.peak - before.rss) / MiB,
      estimateMiB: estimate.bytes / MiB,
      heapMiB: wasmHeapBytes(kit) / MiB,
      heapEstimateMiB: (estimate.costliest.frame.heapBytes + 128 * MiB) / MiB,
      ms,
    })}\n`,
  );
  renderer.dispose();
}

const at = process.argv.indexOf("--case");
if (at >= 0) {
  await runCase(Number(process.argv[at + 1]));
  process.exit(0);
}

const only = process.env.BENCH_COST_ONLY;
const rows: Record<string, unknown>[] = [];
process.stdout.write(
  "| document | scale | format | peak, MiB | estimate, MiB | ratio | heap after / estimated, MiB |\n|---|---|---|---|---|---|---|\n",
);
for (const [index, c] of CASES.entries()) {
  if (only && !c.name.includes(only)) continue;
  const out = execFileSync(
    process.execPath,
    ["--expose-gc", fileURLToPath(import.meta.url), "--case", String(index)],
    {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    },
  );
  const m = JSON.parse(out.trim().split("\n").at(-1) ?? "{}");
  const row = { name: c.name, scale: c.scale, format: c.format, ...m, ratio: m.estimateMiB / m.peakMiB };
  rows.push(row);
  const n = (v: number) => Math.round(v).toLocaleString("en-US");
  process.stdout.write(
    `| ${c.name} | ${c.scale} | ${c.format} | ${n(m.peakMiB)} | ${n(m.estimateMiB)} | ${row.ratio.toFixed(2)} | ${n(m.heapMiB)} / ${n(m.heapEstimateMiB)} |\n`,
  );
  if (m.estimateMiB < m.peakMiB) process.stdout.write(`  ^ the estimate is BELOW the measured peak\n`);
}
await mkdir(join(benchDir, "results"), { recursive: true });
writeFileSync(join(benchDir, "results", "render-cost.json"), `${JSON.stringify(rows, null, 2)}\n`);
