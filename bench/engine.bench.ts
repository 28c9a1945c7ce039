/**
 * `npm run bench:engine`: the issue 2 reference scene through the engine, against three baselines
 * measured in the same run: (a) the floor, sharp encoding a buffer of the same size with the same
 * settings; (b) satori + resvg; (c) a warm headless Chromium page, when /usr/bin/chromium exists.
 * One render at a time on one thread (sharp.concurrency(1)). Then the document v2 "rich" scene
 * (bench/reference-scene-rich.json) against its own floor, the document v3 "layout" scene
 * (bench/reference-scene-layout.json: a stack of 20 hugging chips that wraps, a repeat of 12 rows and
 * a chart, in stacks) against its own floor, the layout
 * arithmetic alone for 1,000 stack children, and the resident memory of a process after 1,000 renders
 * of the reference and rich scenes. Prints a table and writes bench/results/engine.json.
 */
import { readFile, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { losslessCompressPng } from "@napi-rs/image";
import type { PreparedImage } from "@pictor/engine";
import { createEngine } from "@pictor/engine";
import { FONT_FACES, fontFilePath, loadFontSet } from "@pictor/fonts";
import { createNodeRenderer, encodeImage, loadCanvasKit, prepareImage } from "@pictor/render-node";
import sharp from "sharp";
import { startChromiumBaseline } from "./baselines/chromium.ts";
import { satoriResvgRenderer, type TtfFace } from "./baselines/satori-resvg.ts";
import { type TakumiRender, takumiRenderer } from "./baselines/takumi.ts";
import { measureAnimatedLine } from "./lib/animation.ts";
import { sharpFloor } from "./lib/encode-floor.ts";
import { layoutChildren, layoutStack } from "./lib/layout-children.ts";
import {
  loadAverageAtStart,
  type Measurement,
  measureInterleaved,
  type RoundOptions,
} from "./lib/measure.ts";
import { makeReferencePhoto, photoWithNewBytes } from "./lib/reference-photo.ts";
import { readReferenceScene } from "./lib/reference-scene.ts";
import { residentAfterRenders } from "./lib/render-loop.ts";

type Format = "png" | "jpeg" | "webp";
const FORMATS: Format[] = ["png", "jpeg", "webp"];

interface Row extends Measurement {
  group: "engine" | "floor" | "satori+resvg" | "chromium" | "takumi";
  /**
   * `reference`: the v1 reference scene; `rich`: the v2 one (gradient, shadow, rich text, QR, masked
   * and filtered photo); `fresh-photo`: the reference scene with new photo bytes on every render.
   */
  scene: "reference" | "rich" | "layout" | "fresh-photo";
  scale: number;
  format: Format | "rgba" | "pdf";
}

const benchDir = dirname(fileURLToPath(import.meta.url));
const PHOTO_SRC = "reference-photo.jpg";

// Single thread: libvips would otherwise spread one encode over every core and flatter the figures.
sharp.concurrency(1);

const document = await readReferenceScene();
const richDocument = await readReferenceScene("rich");
const layoutDocument = await readReferenceScene("layout");
// The reference scene's sample holds text values only.
const values = (document.sample ?? {}) as Record<string, string>;
const photo = await makeReferencePhoto();

const [canvasKit, fonts] = await Promise.all([loadCanvasKit(), loadFontSet()]);
const engine = createEngine({ canvasKit, fonts });
const renderer = await createNodeRenderer({ fonts });
const loadImage = async (src: string): Promise<Uint8Array> => {
  if (src !== PHOTO_SRC) throw new Error(`the reference scene has one image, got ${src}`);
  return photo;
};

// The photo stands for an uploaded asset: immutable, so the host's prepared-image cache serves it.
const sourceIdentity = (src: string) => src;

const loadAtStart = loadAverageAtStart();

/** The scene's fonts as TTF bytes, for the baselines (the same files the engine uses). */
async function interFaces(): Promise<TtfFace[]> {
  const wanted = [400, 700] as const;
  return Promise.all(
    wanted.map(async (weight) => {
      const face = FONT_FACES.find(
        (f) => f.family === "Inter" && f.weight === weight && f.style === "normal",
      );
      if (!face) throw new Error(`Inter ${weight} is not in the shipped font set`);
      return { name: "Inter", weight, bytes: new Uint8Array(await readFile(fontFilePath(face))) };
    }),
  );
}

type Candidate = {
  name: string;
  run: () => unknown;
  group: Row["group"];
  scene?: Row["scene"];
  scale: number;
  format: Row["format"];
};

async function engineCandidates(
  scale: number,
  scene: Exclude<Row["scene"], "fresh-photo"> = "reference",
): Promise<Candidate[]> {
  const doc = { reference: document, rich: richDocument, layout: layoutDocument }[scene];
  const tag = scene === "reference" ? "" : `${scene} `;
  const options = { frame: "og", values: doc.sample ?? {}, scale };
  // Each render through the renderer gets its values parsed anew, as a request's body is: nothing
  // the engine keeps by the values' objects (a repeat's copies) carries over from one render to the next.
  const sample = JSON.stringify(doc.sample ?? {});
  const freshValues = () => JSON.parse(sample) as typeof options.values;
  // Compose alone: prepared pixels are cached per (source, box, fit) in the host, so a steady-state
  // render pays for drawing only.
  const images = new Map<string, PreparedImage>();
  for (const request of engine.planImages(doc, options)) {
    images.set(request.key, await prepareImage(await loadImage(request.src), request));
  }
  // Floor: sharp with the speed settings on a copy of this frame's RGBA pixels (bench/lib/encode-floor.ts),
  // so the compressor sees the same content.
  const frame = engine.render(doc, { ...options, images });
  const pixels = { ...frame, pixels: frame.pixels.slice() };
  const formats = scene === "reference" ? FORMATS : (["png"] as const);
  return [
    {
      name: `${tag}compose x${scale}`,
      group: "engine",
      scene,
      scale,
      format: "rgba",
      run: () => engine.render(doc, { ...options, images }),
    },
    ...formats.map(
      (format): Candidate => ({
        name: `${tag}compose+${format} x${scale}`,
        group: "engine",
        scene,
        scale,
        format,
        run: () =>
          renderer.render(doc, { ...options, values: freshValues(), format, loadImage, sourceIdentity }),
      }),
    ),
    // The same pixels as a one-page PDF (lossless, the API's default for format pdf).
    ...(scene === "reference"
      ? [
          {
            name: `compose+pdf x${scale}`,
            group: "engine",
            scene,
            scale,
            format: "pdf",
            run: () => renderer.renderPdf(doc, { ...options, frames: ["og"], loadImage, sourceIdentity }),
          } satisfies Candidate,
        ]
      : []),
    ...formats.map(
      (format): Candidate => ({
        name: `${tag}floor ${format} x${scale}`,
        group: "floor",
        scene,
        scale,
        format,
        run: () => sharpFloor(pixels, format),
      }),
    ),
  ];
}

const faces = await interFaces();
const sceneValues = {
  headline: values.headline ?? "",
  body: values.body ?? "",
  photo: `data:image/jpeg;base64,${Buffer.from(photo).toString("base64")}`,
};
const satoriRender = satoriResvgRenderer(faces);
const chromiumBaseline = await startChromiumBaseline(faces, sceneValues);
// Alternate the text so every screenshot has to lay out and paint again, as a real request would.
const alternate = { headline: `${sceneValues.headline}!`, body: `${sceneValues.body}!` };
let flip = false;

const baselines: Candidate[] = [
  {
    name: "satori+resvg png x1",
    group: "satori+resvg",
    scale: 1,
    format: "png",
    run: () => satoriRender(sceneValues),
  },
];
if (chromiumBaseline) {
  baselines.push({
    name: "chromium screenshot png x1",
    group: "chromium",
    scale: 1,
    format: "png",
    run: () => {
      flip = !flip;
      return chromiumBaseline.screenshot(flip ? alternate : sceneValues);
    },
  });
} else {
  console.error("baseline Chromium: SKIPPED (/usr/bin/chromium not installed)");
}

// Takumi (native Rust, the fastest open-source peer) draws the same scene; PICTOR_BENCH_TAKUMI=0 skips it.
const withTakumi = process.env.PICTOR_BENCH_TAKUMI !== "0";
const takumi: TakumiRender | null = withTakumi ? await takumiRenderer(faces) : null;
const takumiValues = { headline: sceneValues.headline, body: sceneValues.body };
const takumiCandidate = (scale: number): Candidate[] =>
  takumi
    ? [
        {
          name: `takumi png x${scale}`,
          group: "takumi",
          scale,
          format: "png",
          run: () => takumi(takumiValues, photo, { scale }),
        },
      ]
    : [];
baselines.push(...takumiCandidate(1));

/**
 * The photo changes on every render (an avatar or product URL per request): each call gets the
 * reference JPEG with new bytes (same pixels), so neither Pictor's content-hashed prepared-image
 * cache nor Takumi's decoded-image cache can serve it.
 */
let freshCount = 0;
const freshPhoto = () => photoWithNewBytes(photo, freshCount++);
const freshCandidates: Candidate[] = [
  {
    name: "fresh-photo compose+png x1",
    group: "engine",
    scene: "fresh-photo",
    scale: 1,
    format: "png",
    run: () => {
      const bytes = freshPhoto();
      return renderer.render(document, {
        frame: "og",
        values,
        scale: 1,
        format: "png",
        loadImage: async () => bytes,
        sourceIdentity: () => null,
      });
    },
  },
  ...(takumi
    ? [
        {
          name: "fresh-photo takumi png x1",
          group: "takumi",
          scene: "fresh-photo",
          scale: 1,
          format: "png",
          run: () => takumi(takumiValues, freshPhoto(), { fresh: true }),
        } satisfies Candidate,
      ]
    : []),
];

const rows: Row[] = [];
async function runGroup(label: string, candidates: Candidate[], options: RoundOptions): Promise<void> {
  console.error(`${label}: ${candidates.map((c) => c.name).join(", ")} (interleaved)`);
  const measured = await measureInterleaved(candidates, options);
  for (const [i, m] of measured.entries()) {
    const c = candidates[i] as Candidate;
    rows.push({ ...m, group: c.group, scene: c.scene ?? "reference", scale: c.scale, format: c.format });
    console.error(
      `  ${m.name}: median ${m.medianMs.toFixed(2)} ms, ${m.medianCpuMs.toFixed(2)} ms CPU (${m.iterations} runs)`,
    );
  }
}

// Budgets sized for about 60-90 s in all on the 2-core reference machine.
await runGroup("scale 1", [...(await engineCandidates(1)), ...baselines], {
  minRounds: 30,
  targetMs: 30_000,
});
await runGroup("scale 4", [...(await engineCandidates(4)), ...takumiCandidate(4)], {
  minRounds: 8,
  targetMs: 25_000,
});
await runGroup("fresh photo, scale 1", freshCandidates, { minRounds: 30, targetMs: 15_000 });
await runGroup("rich scene, scale 1", await engineCandidates(1, "rich"), { minRounds: 30, targetMs: 15_000 });
await runGroup("layout scene, scale 1", await engineCandidates(1, "layout"), {
  minRounds: 30,
  targetMs: 10_000,
});
await chromiumBaseline?.close();

// The layout arithmetic alone (no drawing, measures through a function): 1,000 stack children.
const thousand = layoutChildren(1000);
const [layoutThousand] = await measureInterleaved(
  [{ name: "layout 1,000 stack children", run: () => layoutStack(thousand.box, thousand.children) }],
  { minRounds: 200, targetMs: 3_000 },
);
if (!layoutThousand) throw new Error("missing the layout measurement");
console.error(`  ${layoutThousand.name}: median ${layoutThousand.medianMs.toFixed(3)} ms`);

const find = (group: Row["group"], scale: number, format: Row["format"], scene: Row["scene"] = "reference") =>
  rows.find((r) => r.group === group && r.scene === scene && r.scale === scale && r.format === format);

const ours = find("engine", 1, "png");
const floor = find("floor", 1, "png");
const satoriRow = find("satori+resvg", 1, "png");
const chromiumRow = find("chromium", 1, "png");
const richOurs = find("engine", 1, "png", "rich");
const richFloor = find("floor", 1, "png", "rich");
const layoutOurs = find("engine", 1, "png", "layout");
const layoutFloor = find("floor", 1, "png", "layout");
if (!ours || !floor || !satoriRow || !richOurs || !richFloor || !layoutOurs || !layoutFloor)
  throw new Error("missing a scale 1 PNG measurement");
/**
 * Bytes of the reference scene's PNG: Pictor's `speed` and `size` encodings against Takumi's, and the
 * lossless encoders that were candidates for `size`, each on the same frame (CPU ms of one encode,
 * median of `runs`). oxipng at scale 4 takes seconds, so it runs once there.
 */
async function pngBytes(scale: number, runs: number) {
  const options = { frame: "og", values, scale };
  const images = new Map<string, PreparedImage>();
  for (const request of engine.planImages(document, options)) {
    images.set(request.key, await prepareImage(await loadImage(request.src), request));
  }
  const drawn = engine.render(document, { ...options, images });
  const frame = { ...drawn, pixels: drawn.pixels.slice() };
  const raw = () =>
    sharp(Buffer.from(frame.pixels), {
      raw: { width: frame.width, height: frame.height, channels: 4 },
    }).removeAlpha();
  const fast = (await encodeImage(frame, { format: "png" })).bytes;
  const encoders: [string, () => Promise<Uint8Array>, number][] = [
    [
      "speed: libspng zlib 1, no filter",
      async () => (await encodeImage(frame, { format: "png" })).bytes,
      runs,
    ],
    [
      "size (what Pictor picks)",
      async () => (await encodeImage(frame, { format: "png", pngOptimize: "size" })).bytes,
      scale === 1 ? runs : 1,
    ],
    [
      "libspng zlib 6, no filter",
      () => raw().png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer(),
      runs,
    ],
    [
      "libspng zlib 6, adaptive",
      () => raw().png({ compressionLevel: 6, adaptiveFiltering: true }).toBuffer(),
      1,
    ],
    [
      "libspng zlib 9, no filter",
      () => raw().png({ compressionLevel: 9, adaptiveFiltering: false }).toBuffer(),
      1,
    ],
    [
      "libspng zlib 9, adaptive",
      () => raw().png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer(),
      1,
    ],
    ["oxipng (@napi-rs/image), filters None+Sub", () => losslessCompressPng(fast, { filter: [0, 1] }), 1],
  ];
  const rows: { encoder: string; bytes: number; cpuMs: number }[] = [];
  for (const [encoder, run, n] of encoders) {
    const cpu: number[] = [];
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const before = process.cpuUsage();
      bytes = (await run()).byteLength;
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
    }
    rows.push({ encoder, bytes, cpuMs: cpu.sort((a, b) => a - b)[Math.floor(cpu.length / 2)] ?? 0 });
  }
  const takumiBytes = takumi ? (await takumi(takumiValues, photo, { scale })).byteLength : null;
  const size = rows[1]?.bytes ?? 0;
  return { scale, takumiBytes, encoders: rows, sizeOverTakumi: takumiBytes ? size / takumiBytes : null };
}
console.error("PNG bytes: speed, size and other encoders against Takumi");
const bytes = [await pngBytes(1, 5), await pngBytes(4, 1)];

console.error("memory: 1,000 renders of each scene, each in a fresh process");
const memory = {
  reference: await residentAfterRenders("reference", 1000),
  rich: await residentAfterRenders("rich", 1000),
};

console.error("animated: 180 frames of 1080x1080 against stills of the same moments, and as an MP4");
const animatedLine = await measureAnimatedLine(engine, renderer);

const pdfOverPng = (scale: number) => {
  const pdf = find("engine", scale, "pdf");
  const png = find("engine", scale, "png");
  return pdf && png ? pdf.medianMs / png.medianMs : null;
};
/** How many times faster Pictor is than Takumi, by CPU and by wall time, in this run. */
const overTakumi = (scale: number, scene: Row["scene"] = "reference") => {
  const theirs = find("takumi", scale, "png", scene);
  const mine = find("engine", scale, "png", scene);
  return theirs && mine
    ? { cpu: theirs.medianCpuMs / mine.medianCpuMs, wall: theirs.medianMs / mine.medianMs }
    : null;
};
const ratios = {
  composePngOverFloor: ours.medianMs / floor.medianMs,
  fasterThanTakumiX1: overTakumi(1),
  fasterThanTakumiX4: overTakumi(4),
  freshPhotoFasterThanTakumi: overTakumi(1, "fresh-photo"),
  composePdfOverComposePng: pdfOverPng(1),
  composePdfOverComposePngX4: pdfOverPng(4),
  richComposePngOverFloor: richOurs.medianMs / richFloor.medianMs,
  layoutComposePngOverFloor: layoutOurs.medianMs / layoutFloor.medianMs,
  richResidentOverReference: memory.rich.residentMiB / memory.reference.residentMiB,
  fasterThanSatoriResvg: satoriRow.medianMs / ours.medianMs,
  fasterThanChromium: chromiumRow ? chromiumRow.medianMs / ours.medianMs : null,
};
const targets = {
  composePngWithin2_5xFloor: ratios.composePngOverFloor <= 2.5,
  composePngWithin1_6xFloor: ratios.composePngOverFloor <= 1.6,
  richComposePngWithin2xFloor: ratios.richComposePngOverFloor <= 2.0,
  layoutComposePngWithin2xFloor: ratios.layoutComposePngOverFloor <= 2.0,
  layoutThousandChildrenUnder5Ms: layoutThousand.medianMs < 5,
  richResidentWithin20Percent: ratios.richResidentOverReference <= 1.2,
  atLeast2_5xFasterThanSatoriResvg: ratios.fasterThanSatoriResvg >= 2.5,
  atLeast6xFasterThanChromium: ratios.fasterThanChromium === null ? null : ratios.fasterThanChromium >= 6,
  freshPhotoAtLeast1_6xTakumiByCpu:
    ratios.freshPhotoFasterThanTakumi === null ? null : ratios.freshPhotoFasterThanTakumi.cpu >= 1.6,
};

const header = ["measurement", "median ms", "CPU ms", "p95 ms", "renders/s/core", "runs"];
const table = rows.map((r) => [
  r.name,
  r.medianMs.toFixed(2),
  r.medianCpuMs.toFixed(2),
  r.p95Ms.toFixed(2),
  r.rendersPerSecond.toFixed(1),
  String(r.iterations),
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]?.length ?? 0)));
const line = (cells: string[]) =>
  `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(" | ")} |`;
const cpu = cpus()[0]?.model ?? "unknown CPU";
const loadAtEnd = loadavg()[0] ?? 0;
console.log(
  `\nReference scene 1200x630, one thread, ${cpu}, node ${process.version}, ` +
    `load average ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end\n`,
);
console.log(line(header));
console.log(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
for (const row of table) console.log(line(row));
const verdict = (ok: boolean | null) => (ok === null ? "not measured" : ok ? "target met" : "TARGET MISSED");
console.log(
  `\ncompose+PNG x1 = ${ratios.composePngOverFloor.toFixed(2)}x the floor (target <= 2.5x: ${verdict(targets.composePngWithin2_5xFloor)})`,
);
console.log(
  `compose+PNG x1 = ${ratios.composePngOverFloor.toFixed(2)}x the floor (document v2 target <= 1.6x: ${verdict(targets.composePngWithin1_6xFloor)})`,
);
console.log(
  `rich scene compose+PNG x1 = ${ratios.richComposePngOverFloor.toFixed(2)}x its own floor (target <= 2.0x: ${verdict(targets.richComposePngWithin2xFloor)})`,
);
console.log(
  `layout scene compose+PNG x1 = ${ratios.layoutComposePngOverFloor.toFixed(2)}x its own floor (target <= 2.0x: ${verdict(targets.layoutComposePngWithin2xFloor)})`,
);
console.log(
  `layout of 1,000 stack children: median ${layoutThousand.medianMs.toFixed(3)} ms, p95 ${layoutThousand.p95Ms.toFixed(3)} ms (target < 5 ms: ${verdict(targets.layoutThousandChildrenUnder5Ms)})`,
);
console.log(
  `resident memory after 1,000 renders: reference ${memory.reference.residentMiB.toFixed(0)} MiB, rich ${memory.rich.residentMiB.toFixed(0)} MiB = ${ratios.richResidentOverReference.toFixed(2)}x (target <= 1.2x: ${verdict(targets.richResidentWithin20Percent)})`,
);
console.log(
  `compose+PNG x1 is ${ratios.fasterThanSatoriResvg.toFixed(2)}x faster than satori+resvg (target >= 2.5x: ${verdict(targets.atLeast2_5xFasterThanSatoriResvg)})`,
);
const takumiRatio = (label: string, ratio: { cpu: number; wall: number } | null) =>
  console.log(
    ratio === null
      ? `${label}: Takumi not measured (PICTOR_BENCH_TAKUMI=0)`
      : `${label}: ${ratio.cpu.toFixed(2)}x faster than Takumi by CPU, ${ratio.wall.toFixed(2)}x by wall time`,
  );
takumiRatio("compose+PNG x1", ratios.fasterThanTakumiX1);
takumiRatio("compose+PNG x4", ratios.fasterThanTakumiX4);
takumiRatio("fresh photo compose+PNG x1", ratios.freshPhotoFasterThanTakumi);
console.log(
  `fresh photo target (>= 1.6x Takumi by CPU): ${verdict(targets.freshPhotoAtLeast1_6xTakumiByCpu)}`,
);
for (const b of bytes) {
  console.log(`\nPNG bytes x${b.scale}: Takumi ${b.takumiBytes ?? "not measured"}`);
  for (const e of b.encoders) {
    const vs = b.takumiBytes ? ` = ${(e.bytes / b.takumiBytes).toFixed(2)}x Takumi` : "";
    console.log(`  ${e.encoder}: ${e.bytes} bytes${vs}, ${e.cpuMs.toFixed(1)} ms CPU`);
  }
  if (b.sizeOverTakumi !== null) {
    console.log(
      `  optimize size = ${b.sizeOverTakumi.toFixed(2)}x Takumi's bytes (target <= 1.0x: ${verdict(b.sizeOverTakumi <= 1)})`,
    );
  }
}
const pdfRatio = (ratio: number | null) => (ratio === null ? "not measured" : `${ratio.toFixed(2)}x`);
console.log(
  `compose+PDF / compose+PNG (same pixels, lossless page): x1 ${pdfRatio(ratios.composePdfOverComposePng)}, x4 ${pdfRatio(ratios.composePdfOverComposePngX4)}`,
);
console.log(
  ratios.fasterThanChromium === null
    ? "Chromium baseline not measured (/usr/bin/chromium missing)"
    : `compose+PNG x1 is ${ratios.fasterThanChromium.toFixed(2)}x faster than a warm Chromium screenshot (target >= 6x: ${verdict(targets.atLeast6xFasterThanChromium)})`,
);

console.log(
  `animated ${animatedLine.width}x${animatedLine.height} (${animatedLine.frames} frames): draw ${animatedLine.animatedDrawMs.toFixed(1)} ms a frame = ${animatedLine.animatedOverStill.toFixed(2)}x a still of the same frame; MP4 ${animatedLine.mp4PerFrameMs.toFixed(1)} ms a frame = ${animatedLine.mp4OverStillPlusEncoder.toFixed(2)}x the still plus ffmpeg alone (target <= 1.5x: ${verdict(animatedLine.mp4OverStillPlusEncoder <= 1.5)}; peak memory: npm run bench:animation)`,
);

const resultFile = join(benchDir, "results", "engine.json");
await writeFile(
  resultFile,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpu,
      loadAverage: { start: loadAtStart, end: loadAtEnd },
      scene: "bench/reference-scene.json",
      richScene: "bench/reference-scene-rich.json",
      layoutScene: "bench/reference-scene-layout.json",
      rows,
      layoutThousandChildren: layoutThousand,
      memory,
      pngBytes: bytes,
      animated: animatedLine,
      ratios,
      targets,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nwrote ${resultFile}`);
engine.dispose();
