/**
 * `npm run bench:memory-takumi`: resident memory of a process that rendered the reference scene 200
 * times at scale 1 and 20 times at scale 4, Pictor's (one renderer as a render thread makes it) beside
 * Takumi's in the same conditions, read at once and again 15 s later (bench/lib/rss-after-renders.ts).
 * Each side runs in a fresh child process with the launcher's settings (bin/pictor.sh:
 * MALLOC_ARENA_MAX=2, MALLOC_MMAP_THRESHOLD_=131072, --max-semi-space-size=4) for both; 3 runs, the two
 * sides interleaved and their order alternated; medians and Pictor/Takumi ratios. Writes
 * bench/results/memory-takumi.json. `BENCH_MEMORY_TAKUMI_RUNS` and `BENCH_MEMORY_TAKUMI_WAIT_MS` change
 * the run count and the wait (for a quick look).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { loadAverageAtStart } from "./lib/measure.ts";
import { makeReferencePhoto } from "./lib/reference-photo.ts";
import {
  type ResidentReading,
  type RssAfterRenders,
  SCALE_1_RENDERS,
  SCALE_4_RENDERS,
} from "./lib/rss-after-renders.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const CHILD = join(benchDir, "lib", "rss-after-renders.ts");
const RUNS = Number(process.env.BENCH_MEMORY_TAKUMI_RUNS ?? 3);
const WAIT_MS = Number(process.env.BENCH_MEMORY_TAKUMI_WAIT_MS ?? 15_000);
const TARGET_LATER_RATIO = 1.3;
const loadAtStart = loadAverageAtStart();

const LAUNCHER_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" };
const LAUNCHER_FLAGS = ["--max-semi-space-size=4"];

const scratch = await mkdtemp(join(tmpdir(), "pictor-bench-rss-"));
const photoFile = join(scratch, "photo.jpg");
await writeFile(photoFile, await makeReferencePhoto());

async function runSide(side: "pictor" | "takumi"): Promise<RssAfterRenders> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...LAUNCHER_FLAGS, CHILD, side, photoFile, String(WAIT_MS)],
    { env: { ...process.env, ...LAUNCHER_ENV }, maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as RssAfterRenders;
}

const runs: { pictor: RssAfterRenders; takumi: RssAfterRenders; load: number }[] = [];
for (let run = 0; run < RUNS; run++) {
  const order = run % 2 === 0 ? (["pictor", "takumi"] as const) : (["takumi", "pictor"] as const);
  const results: Partial<Record<"pictor" | "takumi", RssAfterRenders>> = {};
  for (const side of order) results[side] = await runSide(side);
  const { pictor, takumi } = results as Record<"pictor" | "takumi", RssAfterRenders>;
  const load = loadavg()[0] ?? 0;
  runs.push({ pictor, takumi, load });
  console.error(
    `run ${run + 1}: pictor ${pictor.atOnce.rssMiB.toFixed(0)} -> ${pictor.later.rssMiB.toFixed(0)} MiB (recycles ${pictor.recycles}, trims ${pictor.trims}), takumi ${takumi.atOnce.rssMiB.toFixed(0)} -> ${takumi.later.rssMiB.toFixed(0)} MiB, load ${load.toFixed(2)}`,
  );
}
await rm(scratch, { recursive: true, force: true });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
type When = "atOnce" | "later";
const medianOf = (side: "pictor" | "takumi", when: When, field: keyof ResidentReading) =>
  median(runs.map((r) => r[side][when][field]));
const readings = (side: "pictor" | "takumi", when: When): ResidentReading => ({
  rssMiB: medianOf(side, when, "rssMiB"),
  anonMiB: medianOf(side, when, "anonMiB"),
  fileMiB: medianOf(side, when, "fileMiB"),
  heapUsedMiB: medianOf(side, when, "heapUsedMiB"),
  arrayBuffersMiB: medianOf(side, when, "arrayBuffersMiB"),
});
const medians = {
  pictor: { atOnce: readings("pictor", "atOnce"), later: readings("pictor", "later") },
  takumi: { atOnce: readings("takumi", "atOnce"), later: readings("takumi", "later") },
};
const ratioPerRun = (when: When) => runs.map((r) => r.pictor[when].rssMiB / r.takumi[when].rssMiB);
const ratios = {
  atOnce: medians.pictor.atOnce.rssMiB / medians.takumi.atOnce.rssMiB,
  later: medians.pictor.later.rssMiB / medians.takumi.later.rssMiB,
  atOncePerRun: ratioPerRun("atOnce"),
  laterPerRun: ratioPerRun("later"),
};
const targets = { laterAtMost1_3xTakumi: ratios.later <= TARGET_LATER_RATIO };

console.log(
  `\nresident memory after ${SCALE_1_RENDERS} scale-1 and ${SCALE_4_RENDERS} scale-4 renders, medians of ${RUNS} runs (MiB)`,
);
console.log(`            at once   ${WAIT_MS / 1000} s later`);
for (const side of ["pictor", "takumi"] as const) {
  console.log(
    `  ${side.padEnd(8)} ${medians[side].atOnce.rssMiB.toFixed(0).padStart(7)}   ${medians[side].later.rssMiB.toFixed(0).padStart(7)}`,
  );
}
console.log(
  `  ratio    ${ratios.atOnce.toFixed(2).padStart(7)}   ${ratios.later.toFixed(2).padStart(7)}   (per run at once ${ratios.atOncePerRun.map((r) => r.toFixed(2)).join(", ")}; later ${ratios.laterPerRun.map((r) => r.toFixed(2)).join(", ")})`,
);
console.log(
  `later reading <= ${TARGET_LATER_RATIO}x Takumi's: ${targets.laterAtMost1_3xTakumi ? "MET" : "NOT MET"}; load ${loadAtStart.toFixed(2)} at start, ${(loadavg()[0] ?? 0).toFixed(2)} at end`,
);

const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, totalMemMiB: totalmem() / 1024 / 1024 },
  loadAverage: { atStart: loadAtStart, atEnd: loadavg()[0] },
  renders: { scale1: SCALE_1_RENDERS, scale4: SCALE_4_RENDERS },
  waitMs: WAIT_MS,
  settings: { env: LAUNCHER_ENV, nodeFlags: LAUNCHER_FLAGS },
  medians,
  ratios,
  targets,
  runs,
};
await mkdir(join(benchDir, "results"), { recursive: true });
await writeFile(join(benchDir, "results", "memory-takumi.json"), `${JSON.stringify(result, null, 2)}\n`);
