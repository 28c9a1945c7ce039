/**
 * `npm run bench:animation`: the animated line alone (bench/lib/animation.ts), also part of
 * `bench:engine`. Writes bench/results/animation.json.
 */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createEngine } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { createNodeRenderer, loadCanvasKit, loadIconSet } from "@pictor/render-node";
import sharp from "sharp";
import { measureAnimatedLine } from "./lib/animation.ts";

sharp.concurrency(1);
const benchDir = dirname(fileURLToPath(import.meta.url));
const loadAtStart = loadavg()[0] ?? 0;
const [canvasKit, fonts, icons] = await Promise.all([loadCanvasKit(), loadFontSet(), loadIconSet()]);
const engine = createEngine({ canvasKit, fonts, icons });
const renderer = await createNodeRenderer({ fonts });
const line = await measureAnimatedLine(engine, renderer);
const { stdout } = await promisify(execFile)(process.execPath, [join(benchDir, "animation-memory.ts")], {
  maxBuffer: 1 << 20,
});
const memory = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Record<string, number>;
const result = {
  date: new Date().toISOString(),
  loadAverage: { start: loadAtStart, end: loadavg()[0] },
  line,
  memory,
};
console.log(
  `animated ${line.width}x${line.height}, ${line.frames} frames: draw ${line.animatedDrawMs.toFixed(1)} ms a frame vs a still of the same frame ${line.stillDrawMs.toFixed(1)} ms (${line.animatedOverStill.toFixed(2)}x); MP4 ${line.mp4PerFrameMs.toFixed(1)} ms a frame vs still + ffmpeg alone ${(line.stillDrawMs + line.encoderPerFrameMs).toFixed(1)} ms = ${line.mp4OverStillPlusEncoder.toFixed(2)}x (target <= 1.5x: ${line.mp4OverStillPlusEncoder <= 1.5 ? "target met" : "TARGET MISSED"})`,
);
console.log(
  `6 s 30 fps 1080x1080 MP4 in a fresh process: peak RSS ${memory.peakResidentMiB} MiB (target < 400 MiB: ${(memory.peakResidentMiB ?? 0) < 400 ? "target met" : "TARGET MISSED"}), ffmpeg child ${memory.encoderPeakResidentMiB} MiB, ${memory.wallMs} ms`,
);
const file = join(benchDir, "results", "animation.json");
await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(`wrote ${file}`);
renderer.dispose();
engine.dispose();
