import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import type { Lookup } from "../../src/adapters/fetch/resolve-target.ts";
import { createAccount } from "../../src/domain/accounts.ts";
import { newAssetToken, newId } from "../../src/domain/ids.ts";
import type { DataDir } from "../../src/main/data-dir.ts";
import type { RunningServer } from "../../src/main/serve.ts";
import { startBackendServer } from "../api-pg/backend.ts";

/** A small, fast template with one slot of each kind and a folder-bound image slot. */
export function testTemplate(key = "test-card", extraSlots: unknown[] = []) {
  return {
    version: 1,
    key,
    name: "Test card",
    slots: [
      { name: "title", type: "text", default: "Hello" },
      { name: "bg", type: "color", default: "#336699" },
      { name: "photo", type: "image" },
      { name: "logo", type: "image", folder: "brand" },
      ...extraSlots,
    ],
    frames: [
      {
        name: "main",
        width: 200,
        height: 100,
        background: "#FFFFFF",
        bind: { background: "bg" },
        layers: [
          {
            id: "photo",
            type: "image",
            x: 0,
            y: 0,
            width: 100,
            height: 100,
            src: "",
            bind: { src: "photo" },
          },
          { id: "logo", type: "image", x: 150, y: 10, width: 40, height: 40, src: "", bind: { src: "logo" } },
          {
            id: "title",
            type: "text",
            x: 105,
            y: 60,
            width: 90,
            height: 30,
            text: "Hello",
            font: { family: "Inter", size: 16 },
            color: "#000000",
            bind: { text: "title" },
          },
        ],
      },
      { name: "wide", width: 300, height: 100, layers: [] },
    ],
  };
}

export interface TestServer {
  url: string;
  server: RunningServer;
  /** A second connection to the same data dir, like the CLI uses while the server runs. */
  data: DataDir;
  images: ImageServer;
  close(): Promise<void>;
}

/**
 * Starts `pictor serve`'s composition root in-process on 127.0.0.1:0 against a fresh data dir, with the
 * image origin and any `allowPorts` (loopback) on the outbound allow-list.
 */
export async function startTestServer(
  options: {
    workers?: number;
    examples?: boolean;
    allowPorts?: number[];
    lookup?: Lookup;
    /** Render threads break their engine as a WebAssembly trap does when they draw this document key. */
    trapOnDocumentKey?: string;
    /** Extra settings, as `pictor serve` would read them from the environment. */
    env?: Record<string, string>;
  } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "pictor-api-"));
  const images = await startImageServer();
  const allow = [images.port, ...(options.allowPorts ?? [])].map((p) => `127.0.0.1:${p}`);
  // The embedded default, or PostgreSQL + S3 under PICTOR_TEST_BACKEND=postgres-s3 (api-pg/backend.ts).
  const { server, data, closeData } = await startBackendServer({
    flags: {
      port: "0",
      data: dir,
      workers: String(options.workers ?? 1),
      ...(options.examples ? {} : { examples: join(dir, "no-examples") }),
    },
    env: {
      PICTOR_OUTBOUND_ALLOWLIST: allow.join(","),
      PICTOR_LOG_LEVEL: "silent",
      PICTOR_RATE_LIMIT_BURST: "100000",
      // Tests send bad keys on purpose (the identical-401 test, the fuzzer), all from 127.0.0.1.
      PICTOR_AUTH_FAILURES_BURST: "100000",
      // Every test downloads from 127.0.0.1 (the download limits' own test sets them low).
      PICTOR_DOWNLOADS_BURST: "100000",
      PICTOR_DOWNLOADS_IP_BURST: "100000",
      ...options.env,
    },
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.trapOnDocumentKey ? { trapOnDocumentKey: options.trapOnDocumentKey } : {}),
  });
  await server.workersReady();
  return {
    url: server.url,
    server,
    data,
    images,
    async close() {
      await server.close();
      await closeData();
      await images.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function newAccount(t: TestServer, credits = 100) {
  const { accountId, apiKey } = await createAccount(t.data, { name: "test", credits });
  return { accountId, key: apiKey };
}

/** Publishes the test template in an account through the API. */
export async function publishTemplate(t: { url: string }, key: string, doc: unknown = testTemplate()) {
  const res = await api(t, "POST", "/v1/templates", { key, body: { document: doc, publish: true } });
  if (res.status !== 201) throw new Error(`publish failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; key: string };
}

/** An asset of the account in `folder`, inserted the way an upload would be. */
export async function insertAsset(t: TestServer, accountId: string, folder: string, bytes: Uint8Array) {
  const id = newId("ast");
  await t.data.blobs.put(`assets/${id}`, bytes);
  const token = newAssetToken();
  await t.data.assets.insert({
    id,
    accountId,
    folder,
    name: "logo.png",
    contentType: "image/png",
    byteSize: bytes.byteLength,
    width: null,
    height: null,
    blobKey: `assets/${id}`,
    token,
    etag: `"${id}"`,
    metadata: {},
    tags: [],
    renderId: null,
    createdAt: new Date().toISOString(),
  });
  return { id, token };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  body: any;
}

export async function api(
  t: { url: string },
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body };
}

export async function balanceOf(t: TestServer, key: string): Promise<number> {
  return (await api(t, "GET", "/v1/account", { key })).body.credits_balance;
}

/** Polls a render until it reaches a final state (async renders only finish in the worker). */
export async function untilFinished(t: { url: string }, key: string, id: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api(t, "GET", `/v1/renders/${id}`, { key });
    if (res.body.status === "completed" || res.body.status === "failed") return res.body;
    if (Date.now() > deadline) throw new Error(`render ${id} still ${res.body.status}`);
    // Polls below the key's refill rate (20 a second): a render that takes seconds under load must not
    // spend the key's whole budget, or the test's next request is answered 429.
    const retryAfter = res.status === 429 ? Number(res.headers.get("retry-after") ?? 1) * 1000 : 0;
    await new Promise((r) => setTimeout(r, Math.max(60, retryAfter)));
  }
}

export interface ImageServer {
  port: number;
  url(path: string): string;
  close(): Promise<void>;
}

/** Loopback image origin (allow-listed through PICTOR_OUTBOUND_ALLOWLIST): /photo.png, /garbage, 404 otherwise. */
export async function startImageServer(): Promise<ImageServer> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#cc3300" } })
    .png()
    .toBuffer();
  const server: Server = createServer((req, res) => {
    if (req.url === "/photo.png") {
      res.writeHead(200, { "content-type": "image/png", "content-length": png.length }).end(png);
    } else if (req.url === "/garbage") {
      res.writeHead(200, { "content-type": "image/png" }).end("this is not an image at all");
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export async function logoPng(): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width: 16, height: 16, channels: 4, background: "#00ff00ff" } })
      .png()
      .toBuffer(),
  );
}
