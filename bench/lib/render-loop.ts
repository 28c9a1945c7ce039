/**
 * Renders a benchmark scene N times to PNG in this process, then prints its resident memory as JSON:
 * what one render thread holds after steady work. Run as a child (`residentAfterRenders`) so each
 * scene starts from a fresh process.
 *
 *   node bench/lib/render-loop.ts <reference|rich> <count>
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createNodeRenderer } from "@pictor/render-node";
import { makeReferencePhoto } from "./reference-photo.ts";
import { readReferenceScene } from "./reference-scene.ts";

type Scene = "reference" | "rich";

export interface ResidentMemory {
  scene: Scene;
  renders: number;
  residentMiB: number;
  heapUsedMiB: number;
}

export async function residentAfterRenders(scene: Scene, renders: number): Promise<ResidentMemory> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [fileURLToPath(import.meta.url), scene, String(renders)],
    {
      maxBuffer: 1024 * 1024,
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as ResidentMemory;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const scene = (process.argv[2] ?? "reference") as Scene;
  const renders = Number(process.argv[3] ?? 1000);
  const document = await readReferenceScene(scene);
  const photo = await makeReferencePhoto();
  const renderer = await createNodeRenderer();
  for (let i = 0; i < renders; i++) {
    // A different headline each time, as real requests would send, so text caches see new strings.
    const values = { ...document.sample, headline: `${document.sample?.headline ?? ""} ${i}` };
    await renderer.render(document, {
      frame: "og",
      values,
      format: "png",
      loadImage: async () => photo,
      sourceIdentity: (src) => src,
    });
  }
  const usage = process.memoryUsage();
  const mib = (bytes: number) => bytes / 1024 / 1024;
  const result: ResidentMemory = {
    scene,
    renders,
    residentMiB: mib(usage.rss),
    heapUsedMiB: mib(usage.heapUsed),
  };
  console.log(JSON.stringify(result));
  renderer.dispose();
}
