/**
 * A hostile tenant's heaviest requests (issue 33), in one place for the hostile-tenant test, `npm run
 * bench:fairness` and the soak: while `runHostileMix` sends them from one account, another account's
 * renders and the server's memory are measured by the caller.
 *
 * The mix, each part as heavy as the limits let an account make it, or heavier (refusals are counted):
 * - the largest frame with shadows: an 8000x8000 text at font size 2000 with stroke 200 and a shadow
 *   of blur 500 (the document that once trapped CanvasKit), an 8000x8000 photo, and a 2000x2000
 *   photo with a blur-100 shadow; wait-mode renders, each part one after another (the 8000x8000 ones
 *   are expected to be refused up front, `422 render_too_large`);
 * - PDFs of many pages: 20 pages (the most frames a template has) of 8000x8000 photos, and 20 pages
 *   of 1100x1100 photos, lossless; wait-mode, one after another;
 * - downloads that never read: 16 clients send a GET for a 64 MiB file and then read nothing;
 * - editor images at the cap: a box of 8000x8000 (answered at 16 megapixels), one reader after
 *   another, and 4 clients that never read their answer (the most bytes an account may leave unread);
 * - distinct on-demand image URLs (each a cache miss, so a render of a 2000x2000 photo card): 5 a
 *   second, the per-account rate of misses, each URL new.
 * The photo is a 4000x3000 JPEG of noise (pixels that do not compress), recorded with its size.
 * A refused request (any status but 2xx) is counted and its sender pauses 100 ms before the next, so a
 * refusal loop does not turn into a CPU benchmark of the client; every answer's status (and error
 * code) is counted per part.
 */
import { connect, type Socket } from "node:net";
import { Worker } from "node:worker_threads";
import { signImageUrl } from "@pictor/client";
import sharp from "sharp";
import { trappingShadowedText } from "../../../render-node/test/fixtures/trapping-shadowed-text.ts";
import { createAccount } from "../../src/domain/accounts.ts";
import { newAssetToken, newId } from "../../src/domain/ids.ts";
import { createTemplate } from "../../src/domain/templates.ts";
import type { AssetStore } from "../../src/ports/asset-store.ts";
import type { BlobStore } from "../../src/ports/blob-store.ts";

const MiB = 1024 * 1024;

/** What seeding needs: the stores of a data dir or of PostgreSQL + S3 (`openDataDir`, `openScaledState`). */
export type SeedStores = Parameters<typeof createAccount>[0] &
  Parameters<typeof createTemplate>[0] & { blobs: BlobStore; assets: AssetStore };

const NOISE_PHOTO_SIZE = { width: 4000, height: 3000 };

/** A 4000x3000 JPEG of noise (about 7 MB): a large upload that compresses badly, made on the spot. */
export async function makeNoisePhoto(): Promise<Uint8Array> {
  const jpeg = await sharp({
    create: {
      ...NOISE_PHOTO_SIZE,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  return new Uint8Array(jpeg);
}

const photoLayer = (id: string, size: number, assetId: string, shadow = false) => ({
  id,
  type: "image",
  x: 0,
  y: 0,
  width: size,
  height: size,
  src: `asset://${assetId}`,
  fit: "cover",
  ...(shadow ? { shadows: [{ x: 20, y: 20, blur: 100, color: "#000000" }] } : {}),
});

const photoFrames = (count: number, size: number, assetId: string, shadow = false) =>
  Array.from({ length: count }, (_, i) => ({
    name: `p${i + 1}`,
    width: size,
    height: size,
    layers: [photoLayer("photo", size, assetId, shadow)],
  }));

const photoTemplate = (key: string, frames: ReturnType<typeof photoFrames>) => ({
  version: 2,
  key,
  name: key,
  slots: [],
  frames,
});

/**
 * The hostile account's templates, naming its photo asset. With `--memory-budget 1024` and two render
 * threads (a per-render budget of about 199 MiB), the 8000x8000 ones are over it (the text cannot be
 * drawn at all); the 2000x2000 shadowed photo (about 188 MiB), the PDF of 20 pages of 1100x1100
 * (about 172 MiB) and the on-demand card are near the largest of their kind under it.
 */
export function hostileTemplates(photoAssetId: string) {
  return [
    trappingShadowedText("hostile-text"),
    photoTemplate("hostile-photo", photoFrames(1, 8000, photoAssetId)),
    photoTemplate("hostile-shadowed-photo", photoFrames(1, 2000, photoAssetId, true)),
    photoTemplate("hostile-pdf-max", photoFrames(20, 8000, photoAssetId)),
    photoTemplate("hostile-pdf", photoFrames(20, 1100, photoAssetId)),
    {
      version: 2,
      key: "hostile-url",
      name: "hostile-url",
      slots: [{ name: "title", type: "text", default: "x" }],
      frames: [
        {
          name: "main",
          width: 2000,
          height: 2000,
          layers: [
            photoLayer("photo", 2000, photoAssetId),
            {
              id: "title",
              type: "text",
              x: 40,
              y: 40,
              width: 1920,
              height: 300,
              text: "x",
              color: "#FFFFFF",
              font: { family: "Inter", size: 120 },
              shadows: [{ x: 8, y: 8, blur: 40, color: "#000000" }],
              bind: { text: "title" },
            },
          ],
        },
      ],
    },
  ];
}

/** The other account's card: what its wait-mode renders draw (600x315: a 200x200 photo and a text). */
export function victimCard(key: string, photoAssetId: string) {
  return {
    version: 2,
    key,
    name: key,
    slots: [{ name: "title", type: "text", default: "Hello" }],
    frames: [
      {
        name: "main",
        width: 600,
        height: 315,
        background: "#FFFFFF",
        layers: [
          { ...photoLayer("photo", 200, photoAssetId), x: 20, y: 57 },
          {
            id: "title",
            type: "text",
            x: 240,
            y: 20,
            width: 340,
            height: 100,
            text: "Hello",
            color: "#000000",
            font: { family: "Inter", size: 40 },
            bind: { text: "title" },
          },
        ],
      },
    ],
  };
}

export interface HostileAccount {
  accountId: string;
  apiKey: string;
  photoAssetId: string;
  /** Path of the 64 MiB file the stalled downloads ask for (`/a/<token>.png`). */
  bigFilePath: string;
}

/** An asset stored straight through the stores (as `pictor` would store an upload). */
async function storeAsset(
  stores: SeedStores,
  accountId: string,
  bytes: Uint8Array,
  name: string,
  type: string,
  size: { width: number; height: number } | null = null,
) {
  const id = newId("ast");
  const blobKey = `uploads/${accountId}/${id}`;
  await stores.blobs.put(blobKey, bytes);
  const token = newAssetToken();
  await stores.assets.insert({
    id,
    accountId,
    folder: "uploads/",
    name,
    contentType: type,
    byteSize: bytes.byteLength,
    width: size?.width ?? null,
    height: size?.height ?? null,
    blobKey,
    token,
    etag: `"${id}"`,
    metadata: {},
    tags: [],
    renderId: null,
    createdAt: new Date().toISOString(),
  });
  return { id, token };
}

/**
 * Through the same stores the server uses: the hostile account (credits it never runs out of), its
 * noise photo and a 64 MiB file (random bytes stored as a PNG: the largest thing to download that
 * an account's storage quota leaves room for many times over), its templates published.
 */
export async function seedHostileAccount(stores: SeedStores, photo: Uint8Array): Promise<HostileAccount> {
  const { accountId, apiKey } = await createAccount(stores, { name: "hostile", credits: 100_000_000 });
  const photoAsset = await storeAsset(stores, accountId, photo, "noise.jpg", "image/jpeg", NOISE_PHOTO_SIZE);
  const big = new Uint8Array(64 * MiB);
  for (let i = 0; i < big.length; i += 65536) crypto.getRandomValues(big.subarray(i, i + 65536));
  const bigFile = await storeAsset(stores, accountId, big, "big.png", "image/png");
  for (const document of hostileTemplates(photoAsset.id)) {
    const created = await createTemplate(stores, accountId, document, { publish: true });
    if (!created.ok) throw new Error(`${document.key}: ${created.message}`);
  }
  return { accountId, apiKey, photoAssetId: photoAsset.id, bigFilePath: `/a/${bigFile.token}.png` };
}

/** The other account, its card published (with a 600x400 photo of its own). */
export async function seedVictimAccount(
  stores: SeedStores,
  templateKey = "victim-card",
): Promise<{ accountId: string; apiKey: string }> {
  const { accountId, apiKey } = await createAccount(stores, { name: "victim", credits: 100_000_000 });
  const size = { width: 600, height: 400 };
  const photo = await sharp({ create: { ...size, channels: 3, background: "#3366cc" } })
    .jpeg()
    .toBuffer();
  const asset = await storeAsset(stores, accountId, photo, "photo.jpg", "image/jpeg", size);
  const created = await createTemplate(stores, accountId, victimCard(templateKey, asset.id), {
    publish: true,
  });
  if (!created.ok) throw new Error(created.message);
  return { accountId, apiKey };
}

/** Answers of one part of the mix: `"200"`, `"422 render_too_large"`, `"error"` (no answer), … */
export type Tally = Record<string, number>;

export interface HostileReport {
  /** Per part of the mix, its answers by status (and error code). */
  parts: Record<string, Tally>;
  /** Requests sent, all parts. */
  sent: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A client that sends a raw request and reads its status line and headers (the first chunk), then
 * nothing more: the server can only send what the socket buffers take. Fails when the connection
 * ends before any answer, or none came within `timeoutMs`.
 */
export function stalledRequest(
  base: string,
  head: string,
  body = "",
  timeoutMs = 60_000,
): Promise<{ socket: Socket; status: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `${head}Host: ${hostname}:${port}\r\n${body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : ""}\r\n${body}`,
      );
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("data", (chunk) => {
      clearTimeout(timer);
      socket.pause();
      const line = chunk.toString("latin1", 0, Math.min(chunk.length, 64)).split("\r\n")[0] ?? "";
      resolve({ socket, status: /^HTTP\/1\.1 (\d{3})/.exec(line)?.[1] ?? line });
    });
    // Before the answer: the request failed. After it (the server closed a client that did not
    // read, or went away): nothing more to settle.
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once("close", () => {
      clearTimeout(timer);
      reject(new Error("closed before an answer"));
    });
  });
}

/** The mix's wait-mode renders, by part: the request body (without `wait`). */
export const HOSTILE_RENDERS: readonly { part: string; body: Record<string, unknown> }[] = [
  { part: "text 8000x8000 with stroke and blur-500 shadow", body: { template: "hostile-text" } },
  { part: "photo 8000x8000", body: { template: "hostile-photo" } },
  { part: "photo 2000x2000 with blur-100 shadow", body: { template: "hostile-shadowed-photo" } },
  {
    part: "PDF 20 pages of 8000x8000",
    body: { template: "hostile-pdf-max", format: "pdf", frames: "all" },
  },
  { part: "PDF 20 pages of 1100x1100", body: { template: "hostile-pdf", format: "pdf", frames: "all" } },
].map((r) => ({ ...r, body: { modifications: [], ...r.body } }));

/** The other parts of the mix, by name. */
export const PART = {
  downloads: "downloads never read (64 MiB)",
  prepareUnread: "prepare-image 16 MP (never read)",
  prepare: "prepare-image 16 MP",
  onDemand: "on-demand URLs (distinct)",
} as const;

/** An editor image of the account's photo for an 8000x8000 box: answered at the 16-megapixel cap. */
export const prepareAtCap = (account: HostileAccount) =>
  JSON.stringify({
    src: account.photoAssetId,
    width: 8000,
    height: 8000,
    fit: "cover",
    focal: { x: 0.5, y: 0.5 },
  });

/** A GET of the account's 64 MiB file that never reads past the headers. */
export const stalledDownload = (url: string, account: HostileAccount) =>
  stalledRequest(url, `GET ${account.bigFilePath} HTTP/1.1\r\n`);

/** An editor image at the cap whose answer is never read past the headers. */
export const stalledPrepare = (url: string, account: HostileAccount) =>
  stalledRequest(
    url,
    `POST /v1/editor/prepare-image HTTP/1.1\r\nAuthorization: Bearer ${account.apiKey}\r\nContent-Type: application/json\r\n`,
    prepareAtCap(account),
  );

/** A URL-signing key of the account, for its on-demand URLs. */
export async function createUrlSigner(url: string, account: HostileAccount): Promise<UrlSigner> {
  const res = await fetch(`${url}/v1/url-signing-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "hostile" }),
  });
  if (res.status !== 201) throw new Error(`url-signing key: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { id: string; secret: string };
  return { keyId: body.id, secret: body.secret };
}

export interface UrlSigner {
  keyId: string;
  secret: string;
}

/** The path and query of a signed on-demand URL of the account's 2000x2000 card, new for each `tag`. */
export async function hostileImagePath(signer: UrlSigner, tag: string): Promise<string> {
  const base = "http://pictor.invalid";
  const signed = await signImageUrl({
    baseUrl: base,
    ...signer,
    template: "hostile-url",
    values: { title: tag },
  });
  return signed.slice(base.length);
}

export interface HostileOptions {
  /** The API's base URL. */
  url: string;
  account: HostileAccount;
  /**
   * The mix runs until this time (Date.now() ms) or until `signal` aborts, whichever comes first
   * (at least one of them given); then every request still open is dropped.
   */
  until?: number;
  signal?: AbortSignal;
  /** Parts to leave out (the names of `HostileReport.parts`), for a lighter mix. */
  skip?: string[];
}

/**
 * Sends the mix from `account` until `until` (or `signal`), then drops whatever is still open
 * (stalled clients, renders waited on) and reports what each part got. Creates a URL-signing key for
 * the on-demand part.
 */
export async function runHostileMix(options: HostileOptions): Promise<HostileReport> {
  const { url, account, until } = options;
  const report: HostileReport = { parts: {}, sent: 0 };
  const stop = new AbortController();
  const endTimer =
    until === undefined ? undefined : setTimeout(() => stop.abort(), Math.max(0, until - Date.now()));
  const end = () => stop.abort();
  options.signal?.addEventListener("abort", end);
  if (options.signal?.aborted) end();
  const tally = (part: string, outcome: string) => {
    const t = report.parts[part] ?? {};
    t[outcome] = (t[outcome] ?? 0) + 1;
    report.parts[part] = t;
  };
  const json = { authorization: `Bearer ${account.apiKey}`, "content-type": "application/json" };
  const wanted = (part: string) => !options.skip?.includes(part);

  /** One request; its outcome tallied; true when it was 2xx. The body is read (or dropped at the end). */
  const send = async (part: string, path: string, init: RequestInit): Promise<boolean> => {
    report.sent++;
    try {
      const res = await fetch(`${url}${path}`, { ...init, signal: stop.signal });
      const bytes = await res.arrayBuffer();
      let code = "";
      if (res.status >= 400) {
        try {
          code = ` ${(JSON.parse(Buffer.from(bytes).toString("utf8")) as { error: { code: string } }).error.code}`;
        } catch {}
      }
      tally(part, `${res.status}${code}`);
      return res.status < 300;
    } catch (error) {
      tally(part, stop.signal.aborted ? "dropped at the end" : `error ${(error as Error).name}`);
      return false;
    }
  };
  const loop = async (part: string, request: () => [string, RequestInit]) => {
    if (!wanted(part)) return;
    while (!stop.signal.aborted) {
      const [path, init] = request();
      if (!(await send(part, path, init))) await pause(100);
    }
  };

  // Stalled clients: opened first, held until the end.
  const held: Socket[] = [];
  const stalled = async (part: string, count: number, open: () => ReturnType<typeof stalledRequest>) => {
    if (!wanted(part)) return;
    // A hostile client refused for now (429: the account holds its share already) tries again after
    // Retry-After, until it holds an answer it never reads or the mix ends.
    const persistent = async () => {
      for (;;) {
        const client = await open();
        if (client.status !== "429" || stop.signal.aborted) return client;
        tally(part, "429");
        client.socket.destroy();
        await pause(1000);
      }
    };
    const clients = await Promise.allSettled(Array.from({ length: count }, persistent));
    for (const c of clients) {
      report.sent++;
      if (c.status === "fulfilled") {
        held.push(c.value.socket);
        tally(part, c.value.status);
      } else tally(part, `error ${String(c.reason).slice(0, 60)}`);
    }
  };

  const signer = wanted(PART.onDemand) ? await createUrlSigner(url, account) : null;
  const onDemand = async () => {
    if (!signer) return;
    const calls: Promise<unknown>[] = [];
    const started = Date.now();
    for (let i = 0; !stop.signal.aborted; i++) {
      const due = started + i * 200;
      if (due > Date.now()) await pause(due - Date.now());
      if (stop.signal.aborted) break;
      const path = await hostileImagePath(signer, `hostile ${started} ${i}`);
      calls.push(send(PART.onDemand, path, {}));
    }
    await Promise.all(calls);
  };

  try {
    await Promise.all([
      stalled(PART.downloads, 16, () => stalledDownload(url, account)),
      stalled(PART.prepareUnread, 4, () => stalledPrepare(url, account)),
      ...HOSTILE_RENDERS.map(({ part, body }) =>
        loop(part, () => [
          "/v1/renders",
          { method: "POST", headers: json, body: JSON.stringify({ ...body, wait: 60 }) },
        ]),
      ),
      loop(PART.prepare, () => [
        "/v1/editor/prepare-image",
        { method: "POST", headers: json, body: prepareAtCap(account) },
      ]),
      onDemand(),
    ]);
  } finally {
    clearTimeout(endTimer);
    options.signal?.removeEventListener("abort", end);
    stop.abort();
    for (const socket of held) socket.destroy();
  }
  return report;
}

export interface VictimReport {
  /** Latencies of the renders that completed (200, status completed), ms, sorted. */
  latencies: number[];
  /** Every render's outcome: `"200"`, or the status and error code, or `"error …"`. */
  outcomes: Tally;
  sent: number;
}

/**
 * The other account: a wait-mode render of its card every `everyMs` (an open loop: whatever the
 * answers) until `until`; each waits for its answer (at most 60 s).
 */
export async function victimRenders(options: {
  url: string;
  apiKey: string;
  template?: string;
  everyMs: number;
  until: number;
}): Promise<VictimReport> {
  const report: VictimReport = { latencies: [], outcomes: {}, sent: 0 };
  const headers = { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" };
  const calls: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; Date.now() < options.until; i++) {
    const wait = started + i * options.everyMs - performance.now();
    if (wait > 0) await pause(wait);
    if (Date.now() >= options.until) break;
    report.sent++;
    const sentAt = performance.now();
    calls.push(
      (async () => {
        let outcome: string;
        try {
          const res = await fetch(`${options.url}/v1/renders`, {
            method: "POST",
            headers,
            body: JSON.stringify({
              template: options.template ?? "victim-card",
              modifications: [{ name: "title", text: `victim ${i}` }],
              wait: 60,
            }),
            signal: AbortSignal.timeout(65_000),
          });
          const body = (await res.json()) as { status?: string; error?: { code?: string } };
          outcome =
            res.status === 200 && body.status === "completed"
              ? "200"
              : `${res.status} ${body.error?.code ?? body.status ?? ""}`.trim();
        } catch (error) {
          outcome = `error ${(error as Error).name}`;
        }
        if (outcome === "200") report.latencies.push(performance.now() - sentAt);
        report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
      })(),
    );
  }
  await Promise.all(calls);
  report.latencies.sort((a, b) => a - b);
  return report;
}

/**
 * Samples the resident memory of `pids` (each with its child processes) every `everyMs` until `stop()`, which returns each process's
 * largest sample (bytes) and how many samples were taken. The sampling runs on a thread of its own,
 * so a busy event loop here (the mix's clients) does not thin out the samples.
 */
export function sampleResidentMemory(
  pids: number[],
  everyMs = 100,
): { stop(): Promise<{ peaks: number[]; samples: number }> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const { readFileSync } = require("node:fs");
     const peaks = workerData.pids.map(() => 0);
     let samples = 0;
     // A process's memory with its child processes' (the API-only process's editor-image process).
     const rss = (pid) => {
       let bytes = 0;
       try {
         const kib = /VmRSS:\\s+(\\d+) kB/.exec(readFileSync("/proc/" + pid + "/status", "utf8"));
         if (kib) bytes += Number(kib[1]) * 1024;
         const children = readFileSync("/proc/" + pid + "/task/" + pid + "/children", "utf8");
         for (const child of children.split(" ").filter(Boolean)) bytes += rss(Number(child));
       } catch {}
       return bytes;
     };
     const take = () => {
       samples++;
       workerData.pids.forEach((pid, i) => {
         peaks[i] = Math.max(peaks[i], rss(pid));
       });
     };
     take();
     const timer = setInterval(take, workerData.everyMs);
     parentPort.once("message", () => {
       clearInterval(timer);
       take();
       parentPort.postMessage({ peaks, samples });
     });`,
    { eval: true, workerData: { pids, everyMs } },
  );
  return {
    async stop() {
      const result = new Promise<{ peaks: number[]; samples: number }>((resolve) =>
        worker.once("message", resolve),
      );
      worker.postMessage("stop");
      const out = await result;
      await worker.terminate();
      return out;
    },
  };
}
