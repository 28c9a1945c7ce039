import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSafeFetch } from "../../src/adapters/fetch/safe-fetch.ts";
import { OutboundError } from "../../src/ports/safe-fetch.ts";
import { closedPort, type RunningServer, startTcpServer } from "./loopback-servers.ts";

// No port-scan oracle (reliability-matrix.md): a closed port, an open port
// speaking another protocol, and a connection reset must be indistinguishable
// to the caller. The ports are allow-listed so the guard lets the connection
// happen and the test exercises the connection-level failures themselves.

let banner: RunningServer;
let resetter: RunningServer;
let hangup: RunningServer;
let garbage: RunningServer;
let closed: number;

beforeAll(async () => {
  banner = await startTcpServer("127.0.0.1", (s) => s.write("SSH-2.0-OpenSSH_9.6\r\n"));
  resetter = await startTcpServer("127.0.0.1", (s) => s.resetAndDestroy());
  hangup = await startTcpServer("127.0.0.1", (s) => s.end());
  garbage = await startTcpServer("127.0.0.1", (s) => s.end("220 smtp.example.com ESMTP ready\r\n"));
  closed = await closedPort("127.0.0.1");
});
afterAll(async () => {
  await Promise.all([banner, resetter, hangup, garbage].map((s) => s.close()));
});

async function failure(url: string, allowlist: string[]): Promise<OutboundError> {
  const safe = createSafeFetch({ allowlist });
  const error = await safe.fetch(url, { timeoutMs: 2000 }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, url).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe("closed, open-but-not-HTTP and resetting ports", () => {
  it("all fail with the same code and the same message", async () => {
    const ports = {
      closed,
      banner: banner.port,
      resetter: resetter.port,
      hangup: hangup.port,
      garbage: garbage.port,
    };
    const seen: Record<string, { code: string; message: string }> = {};
    for (const [name, port] of Object.entries(ports)) {
      const error = await failure(`http://127.0.0.1:${port}/`, [`127.0.0.1:${port}`]);
      seen[name] = { code: error.code, message: error.message };
    }
    const expected = { code: "fetch_failed", message: "outbound request failed" };
    expect(seen).toEqual({
      closed: expected,
      banner: expected,
      resetter: expected,
      hangup: expected,
      garbage: expected,
    });
    expect(banner.hits.length).toBe(1);
  });

  it("do not leak the underlying socket error in the message", async () => {
    const error = await failure(`http://127.0.0.1:${closed}/`, [`127.0.0.1:${closed}`]);
    expect(error.message).not.toMatch(/ECONNREFUSED|refused|reset|parse/i);
  });

  it("a non-allow-listed port is blocked before any connection, open or closed", async () => {
    const open = await failure(`http://127.0.0.1:${banner.port}/`, []);
    const shut = await failure(`http://127.0.0.1:${closed}/`, []);
    expect([open.code, open.message]).toEqual([shut.code, shut.message]);
    expect(open.code).toBe("blocked");
    expect(banner.hits.length).toBe(1); // only the allow-listed attempt above
  });
});
