/**
 * Engine-only throughput with N render threads at once (the reference scene, PNG, scale 1, photo
 * cached): the ceiling the machine allows the API's worker pool. On a shared or busy machine two
 * threads may get far less than two cores; the HTTP scaling figure is read against this one.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

export async function engineThroughput(threads: number, seconds: number): Promise<number> {
  const counts = await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise<number>((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url), { workerData: { ms: seconds * 1000 } });
          worker.once("message", (count: number) => {
            resolve(count);
            void worker.terminate();
          });
          worker.once("error", reject);
        }),
    ),
  );
  return counts.reduce((a, b) => a + b, 0) / seconds;
}

if (!isMainThread && parentPort) {
  const { createNodeRenderer } = await import("@pictor/render-node");
  const { makeReferencePhoto } = await import("./reference-photo.ts");
  const { readReferenceScene } = await import("./reference-scene.ts");
  const document = await readReferenceScene();
  const photo = await makeReferencePhoto();
  const renderer = await createNodeRenderer();
  const options = {
    frame: "og",
    values: document.sample,
    scale: 1,
    format: "png" as const,
    loadImage: async () => photo,
    sourceIdentity: (src: string) => src,
  };
  for (let i = 0; i < 10; i++) await renderer.render(document, options);
  const end = Date.now() + (workerData as { ms: number }).ms;
  let count = 0;
  while (Date.now() < end) {
    await renderer.render(document, options);
    count++;
  }
  parentPort.postMessage(count);
}
