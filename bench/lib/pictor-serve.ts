import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TemplateDocumentT } from "@pictor/engine";
import { createAccount } from "../../packages/server/src/domain/accounts.ts";
import { newAssetToken, newId } from "../../packages/server/src/domain/ids.ts";
import { createTemplate } from "../../packages/server/src/domain/templates.ts";
import { openDataDir } from "../../packages/server/src/main/data-dir.ts";
import type { AssetStore } from "../../packages/server/src/ports/asset-store.ts";
import type { BlobStore } from "../../packages/server/src/ports/blob-store.ts";

/** What `npm start` runs: the launcher with the memory settings it gives Node (bin/pictor.sh). */
const LAUNCHER = fileURLToPath(new URL("../../packages/server/bin/pictor.sh", import.meta.url));

export interface SeededDataDir {
  dir: string;
  accountId: string;
  apiKey: string;
  webhookSecret: string;
  /** The photo stored as the account's asset: a render names it by this id as `image_url`. */
  assetId: string;
}

/**
 * A fresh data dir prepared through the same stores the server uses (as `pictor accounts create`
 * would): one account with credits no benchmark runs out of, the photo as an asset, the scene
 * published. Closed again before the server opens it: SQLite allows one writer process.
 */
export async function seedDataDir(
  prefix: string,
  document: TemplateDocumentT,
  photo: Uint8Array,
): Promise<SeededDataDir> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const data = openDataDir(dir, { examplesDir: join(dir, "none") });
  const { accountId, apiKey, assetId } = await seedBenchAccount(data, document, photo);
  const webhookSecret = (await data.accounts.webhookSecret(accountId)) as string;
  data.close();
  return { dir, accountId, apiKey, webhookSecret, assetId };
}

type BenchStores = Parameters<typeof createAccount>[0] &
  Parameters<typeof createTemplate>[0] & { blobs: BlobStore; assets: AssetStore };

/**
 * Through the same stores the server uses (embedded data dir or PostgreSQL + S3): one account with
 * credits no benchmark runs out of, the photo as its asset, the scene published.
 */
export async function seedBenchAccount(
  stores: BenchStores,
  document: TemplateDocumentT,
  photo: Uint8Array,
): Promise<{ accountId: string; apiKey: string; assetId: string }> {
  const { accountId, apiKey } = await createAccount(stores, { name: "bench", credits: 10_000_000 });
  const assetId = newId("ast");
  await stores.blobs.put(`assets/${assetId}`, photo);
  await stores.assets.insert({
    id: assetId,
    accountId,
    folder: "bench/",
    name: "reference-photo.jpg",
    contentType: "image/jpeg",
    byteSize: photo.byteLength,
    width: null,
    height: null,
    blobKey: `assets/${assetId}`,
    token: newAssetToken(),
    etag: `"${assetId}"`,
    metadata: {},
    tags: [],
    renderId: null,
    createdAt: new Date().toISOString(),
  });
  const created = await createTemplate(stores, accountId, document, { publish: true });
  if (!created.ok) throw new Error(created.message);
  return { accountId, apiKey, assetId };
}

export interface PictorServe {
  child: ChildProcess;
  url: string;
  /** SIGTERM: the server finishes the renders in flight and exits (queued ones stay in the table). */
  stop(): Promise<void>;
  /** The process's resident memory now (Linux /proc), or null where that cannot be read. */
  residentBytes(): number | null;
}

/** BENCH_SERVER_LOG=file keeps the benchmarked servers' output, e.g. of PICTOR_NODE_OPTIONS=--trace-gc. */
export function keepServerOutput(chunk: Buffer | string): void {
  if (process.env.BENCH_SERVER_LOG) appendFileSync(process.env.BENCH_SERVER_LOG, chunk);
}

/**
 * `pictor serve` as a child process on a free loopback port, without the example templates. The
 * rate limit is lifted: a benchmark measures rendering, not the limiter.
 */
export async function startPictorServe(
  dir: string,
  env: Record<string, string> = {},
  /** `drop`: its standard error (the log) goes to a pipe read and thrown away, as to a log collector. */
  options: { stderr?: "inherit" | "drop" } = {},
): Promise<PictorServe> {
  // `sh` execs node in its own place, so the child's pid is the server's.
  const child = spawn(
    "sh",
    [LAUNCHER, "serve", "--port", "0", "--data", dir, "--examples", join(dir, "none")],
    {
      env: {
        ...process.env,
        PICTOR_NODE: process.execPath,
        PICTOR_LOG_LEVEL: "warn",
        PICTOR_RATE_LIMIT_BURST: "100000000",
        PICTOR_RATE_LIMIT_PER_SECOND: "1000000",
        // Benchmarks measure serving files, not the download limits (per client address and per key).
        PICTOR_DOWNLOADS_BURST: "100000000",
        PICTOR_DOWNLOADS_PER_SECOND: "1000000",
        PICTOR_DOWNLOADS_IP_BURST: "100000000",
        PICTOR_DOWNLOADS_IP_PER_SECOND: "1000000",
        ...env,
      },
      stdio: ["ignore", "pipe", options.stderr === "drop" ? "pipe" : "inherit"],
    },
  );
  child.stderr?.resume();
  let out = "";
  let listening = false;
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (d) => {
      keepServerOutput(d);
      // Once it listens, the rest (request log lines) is read and dropped, not gathered.
      if (listening) return;
      out += d;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        listening = true;
        out = "";
        resolve(match[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`pictor serve exited with ${code}`)));
  });
  return {
    child,
    url,
    residentBytes() {
      try {
        const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1];
        return kib ? Number(kib) * 1024 : null;
      } catch {
        return null;
      }
    },
    async stop() {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}
