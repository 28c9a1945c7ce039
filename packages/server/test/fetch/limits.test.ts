import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createSafeFetch } from "../../src/adapters/fetch/safe-fetch.ts";
import { type RunningServer, startHttpServer, startTcpServer } from "./loopback-servers.ts";

const MiB = 1024 * 1024;
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Parameters<typeof startHttpServer>[1]): Promise<RunningServer> {
  const server = await startHttpServer("127.0.0.1", handler);
  servers.push(server);
  return server;
}

/** Writes `total` bytes in 64 KiB chunks honouring backpressure; reports how many were accepted. */
function streamBytes(res: ServerResponse, total: number, report: (sent: number, finished: boolean) => void) {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  res.on("close", () => report(sent, sent >= total));
  const pump = (): void => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
    if (sent >= total) res.end();
  };
  pump();
}

describe("body size cap", () => {
  it("aborts a 30 MiB chunked body at maxBytes 1 MiB without the sender finishing", async () => {
    let outcome: { sent: number; finished: boolean } | undefined;
    const closed = new Promise<void>((done) => {
      void serve((_req, res) => {
        res.writeHead(200, { "Content-Type": "image/png" });
        streamBytes(res, 30 * MiB, (sent, finished) => {
          outcome = { sent, finished };
          done();
        });
      }).then((server) => {
        const safe = createSafeFetch({ allowlist: [`127.0.0.1:${server.port}`] });
        return expect(
          safe.fetch(`http://127.0.0.1:${server.port}/big.png`, { maxBytes: MiB }),
        ).rejects.toMatchObject({
          code: "too_large",
        });
      });
    });
    await closed;
    // The connection was closed under the sender: it never got to write all
    // 30 MiB (what it did write is bounded by the cap plus socket buffers).
    expect(outcome?.finished).toBe(false);
    expect(outcome?.sent).toBeLessThan(16 * MiB);
  });

  it("refuses a declared Content-Length over the cap before reading the body", async () => {
    let sentWhenClosed = -1;
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Length": String(30 * MiB) });
      streamBytes(res, 30 * MiB, (sent) => {
        sentWhenClosed = sent;
      });
    });
    const safe = createSafeFetch({ allowlist: [`127.0.0.1:${server.port}`] });
    await expect(safe.fetch(`http://127.0.0.1:${server.port}/`, { maxBytes: MiB })).rejects.toMatchObject({
      code: "too_large",
      message: `response body exceeds ${MiB} bytes`,
    });
    expect(sentWhenClosed).not.toBe(30 * MiB);
  });

  it("returns a body of exactly maxBytes", async () => {
    const server = await serve((_req, res) => res.end(Buffer.alloc(1000, 7)));
    const safe = createSafeFetch({ allowlist: [`127.0.0.1:${server.port}`] });
    const response = await safe.fetch(`http://127.0.0.1:${server.port}/`, { maxBytes: 1000 });
    expect(response.body.byteLength).toBe(1000);
    await expect(safe.fetch(`http://127.0.0.1:${server.port}/`, { maxBytes: 999 })).rejects.toMatchObject({
      code: "too_large",
    });
  });
});

describe("whole-request deadline", () => {
  it("fires on a server that trickles one byte at a time", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "image/png" });
      const timer = setInterval(() => res.write("x"), 20);
      res.on("close", () => clearInterval(timer));
    });
    const safe = createSafeFetch({ allowlist: [`127.0.0.1:${server.port}`] });
    await expect(
      safe.fetch(`http://127.0.0.1:${server.port}/slow.png`, { timeoutMs: 300 }),
    ).rejects.toMatchObject({
      code: "timeout",
    });
  });

  it("fires on a server that accepts and never answers", async () => {
    const silent = await startTcpServer("127.0.0.1", () => {});
    servers.push(silent);
    const safe = createSafeFetch({ allowlist: [`127.0.0.1:${silent.port}`] });
    await expect(safe.fetch(`http://127.0.0.1:${silent.port}/`, { timeoutMs: 200 })).rejects.toMatchObject({
      code: "timeout",
    });
  });

  it("covers DNS resolution too", async () => {
    const safe = createSafeFetch({ allowlist: [], lookup: () => new Promise(() => {}) });
    await expect(safe.fetch("http://hangs.example.com/", { timeoutMs: 100 })).rejects.toMatchObject({
      code: "timeout",
    });
  });

  it("bounds check()'s DNS resolution as well", async () => {
    const safe = createSafeFetch({ allowlist: [], lookup: () => new Promise(() => {}), checkTimeoutMs: 50 });
    expect(await safe.check("https://hangs.example.com/hook")).toEqual({
      ok: false,
      reason: "host did not resolve in time",
    });
  });

  it("spans all redirect hops, not each one", async () => {
    const server = await serve((req, res) => {
      // Each hop alone is well inside the deadline; together they are not.
      setTimeout(() => {
        res.writeHead(302, { Location: `${req.url}x` });
        res.end();
      }, 80);
    });
    const safe = createSafeFetch({ allowlist: [`127.0.0.1:${server.port}`] });
    await expect(
      safe.fetch(`http://127.0.0.1:${server.port}/`, { timeoutMs: 200, maxRedirects: 10 }),
    ).rejects.toMatchObject({ code: "timeout" });
  });
});
