/**
 * One 6 s, 30 fps, 1080x1080 MP4 render (bench/lib/animation.ts) in this fresh process; prints one
 * JSON line: this process's peak resident set (VmHWM) and the ffmpeg child's, sampled every 20 ms.
 */
import { createNodeRenderer } from "@pictor/render-node";
import { animatedBenchDocument, childPids, peakResidentKb } from "./lib/animation.ts";

const document = await animatedBenchDocument();
const renderer = await createNodeRenderer();
const beforeKb = await peakResidentKb("self");
let encoderKb = 0;
const sampler = setInterval(async () => {
  for (const pid of await childPids()) encoderKb = Math.max(encoderKb, await peakResidentKb(pid));
}, 20);
const started = performance.now();
const out = await renderer.renderAnimation(document, {
  format: "mp4",
  scale: 3,
  values: document.sample ?? {},
  loadImage: async () => {
    throw new Error("no images");
  },
});
clearInterval(sampler);
const pictorKb = await peakResidentKb("self");
console.log(
  JSON.stringify({
    frames: out.frames,
    width: out.width,
    height: out.height,
    bytes: out.bytes.byteLength,
    wallMs: Math.round(performance.now() - started),
    peakResidentMiBBeforeRender: Math.round(beforeKb / 1024),
    peakResidentMiB: Math.round(pictorKb / 1024),
    encoderPeakResidentMiB: Math.round(encoderKb / 1024),
  }),
);
renderer.dispose();
process.exit(0);
