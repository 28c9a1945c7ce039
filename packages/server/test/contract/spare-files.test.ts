import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createFileBlobStore } from "../../src/adapters/files/blob-store.ts";
import { createSpareFiles } from "../../src/adapters/files/spare-files.ts";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "pictor-spares-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function bytesOf(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) % 251;
  return bytes;
}
const sparesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe("spare files for render outputs", () => {
  it("writes an output over a filled spare and renames it into place, with exactly the output's bytes", async () => {
    const dir = join(root, ".spares");
    const spares = createSpareFiles(dir);
    expect(spares.writeOver(join(root, "first.png"), bytesOf(10, 1))).toBe(false);
    await spares.refill(300_000);
    const [spare] = sparesIn(dir);
    expect(spare).toMatch(new RegExp(`^spare-${process.pid}-`));
    expect(statSync(join(dir, spare as string)).size).toBeGreaterThanOrEqual(300_000);

    const output = bytesOf(200_000, 7);
    expect(spares.writeOver(join(root, "out.png"), output)).toBe(true);
    expect(new Uint8Array(readFileSync(join(root, "out.png")))).toEqual(output);
    expect(sparesIn(dir)).toEqual([]);
  });

  it("takes an output larger than the spare in full", async () => {
    const spares = createSpareFiles(join(root, ".spares"));
    await spares.refill(1000);
    const output = bytesOf(500_000, 3);
    expect(spares.writeOver(join(root, "big.png"), output)).toBe(true);
    expect(new Uint8Array(readFileSync(join(root, "big.png")))).toEqual(output);
  });

  it("removes spares left by a process that is gone, and keeps those of live ones", async () => {
    const dir = join(root, ".spares");
    mkdirSync(dir);
    const gone = spawnSync(process.execPath, [
      "-e",
      "process.stdout.write(String(process.pid))",
    ]).stdout.toString();
    writeFileSync(join(dir, `spare-${gone}-1-deadbeef`), "left by a crash");
    writeFileSync(join(dir, `spare-${process.ppid}-1-cafef00d`), "a live process's spare");
    await createSpareFiles(dir).refill(1000);
    const names = sparesIn(dir);
    expect(names).not.toContain(`spare-${gone}-1-deadbeef`);
    expect(names).toContain(`spare-${process.ppid}-1-cafef00d`);
    expect(names.filter((n) => n.startsWith(`spare-${process.pid}-`))).toHaveLength(1);
  });

  it("falls back to a plain write, and makes no more spares, when a spare cannot be used", async () => {
    const dir = join(root, ".spares");
    const spares = createSpareFiles(dir);
    await spares.refill(1000);
    // The output's directory does not exist: the rename fails, the spare is removed.
    expect(spares.writeOver(join(root, "missing", "out.png"), bytesOf(100, 1))).toBe(false);
    expect(sparesIn(dir)).toEqual([]);
    await spares.refill(1000);
    expect(sparesIn(dir)).toEqual([]);
  });

  it("closes a spare it could not use once (a second close takes the file another thread opened under its number)", async () => {
    // In a worker thread, as render threads use spares: Node warns there when a thread closes a file
    // it has not open. Before, a failed rename closed the spare's file twice, and each CI run printed
    // "File descriptor 40 closed but not opened in unmanaged mode" (test/queue/output-storage-retry).
    const worker = new Worker(
      `const { parentPort, workerData } = require("node:worker_threads");
      const warnings = [];
      process.on("warning", (warning) => warnings.push(warning.message));
      import(workerData.module).then(async ({ createSpareFiles }) => {
        const spares = createSpareFiles(workerData.dir);
        await spares.refill(1000);
        const written = spares.writeOver(workerData.out, new Uint8Array(100));
        setImmediate(() => parentPort.postMessage({ written, warnings }));
      });`,
      {
        eval: true,
        workerData: {
          module: new URL("../../src/adapters/files/spare-files.ts", import.meta.url).href,
          dir: join(root, ".spares"),
          out: join(root, "missing", "out.png"),
        },
      },
    );
    const [result] = await once(worker, "message");
    await worker.terminate();
    expect(result).toEqual({ written: false, warnings: [] });
    expect(sparesIn(join(root, ".spares"))).toEqual([]);
  });

  it("the render-output store writes each output over the spare it filled after the previous one", async () => {
    const store = createFileBlobStore(root, { renderOutputs: true });
    const first = bytesOf(120_000, 1);
    await store.put("renders/r0.png", first);
    // The spare is filled on the libuv pool after the put returns, while a worker waits for its next task.
    const filled = () => sparesIn(join(root, ".spares")).filter((n) => n.startsWith("spare-"));
    await vi.waitFor(() => expect(filled()).toHaveLength(1));
    const [spare] = filled();
    const second = bytesOf(90_000, 2);
    await store.put("renders/r1.png", second);
    expect(sparesIn(join(root, ".spares"))).not.toContain(spare);
    expect(await store.get("renders/r0.png")).toEqual(first);
    expect(await store.get("renders/r1.png")).toEqual(second);
    expect(readdirSync(join(root, "renders")).sort()).toEqual(["r0.png", "r1.png"]);
  });
});
