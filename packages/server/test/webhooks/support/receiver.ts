import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { verify as octokitVerify } from "@octokit/webhooks-methods";
import { verifyCallback } from "@pictor/client";

/** How the receiver answers one request; it may also never answer. */
export type ReceiverBehaviour = (request: IncomingMessage, response: ServerResponse) => void;

export interface ReceivedCallback {
  path: string;
  headers: IncomingMessage["headers"];
  /** Exactly the bytes on the wire. */
  rawBody: Buffer;
  /** The independent verifier's verdict and ours, each against the receiver's secrets. */
  verifiedByOctokit: boolean;
  verifiedByClient: boolean;
}

export interface TestReceiver {
  url(path?: string): string;
  port: number;
  received: ReceivedCallback[];
  /** Answers for the next requests, in order; when empty, `fallback` answers. */
  queue(...behaviours: ReceiverBehaviour[]): void;
  /** Resolves when request number `count` (1-based) has fully arrived. */
  waitForRequest(count: number): Promise<ReceivedCallback>;
  close(): Promise<void>;
}

export const answer =
  (status: number, headers: Record<string, string> = {}): ReceiverBehaviour =>
  (_request, response) => {
    response.writeHead(status, headers).end(status >= 400 ? "receiver error" : "ok");
  };

/** Never answers; the socket stays open until the sender gives up. */
export const hang: ReceiverBehaviour = () => {};

/** Drops the TCP connection without an HTTP response. */
export const resetConnection: ReceiverBehaviour = (request) => {
  request.socket.destroy();
};

/**
 * A 200 whose chunked body would be 1 GiB: writes as fast as the sender reads and stops when the
 * sender hangs up. `sent` reports how many bytes actually left.
 */
export function streamOneGigabyte(sent: { bytes: number }): ReceiverBehaviour {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const total = 1024 * 1024 * 1024;
  return (_request, response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    const pump = (): void => {
      while (sent.bytes < total && !response.destroyed) {
        sent.bytes += chunk.length;
        if (!response.write(chunk)) {
          response.once("drain", pump);
          return;
        }
      }
      if (!response.destroyed) response.end();
    };
    response.on("close", () => response.removeAllListeners("drain"));
    pump();
  };
}

/** A 200 that sends one byte every `everyMs` and never finishes. */
export function trickle(everyMs: number): ReceiverBehaviour {
  return (_request, response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => response.write("."), everyMs);
    response.on("close", () => clearInterval(timer));
  };
}

export async function startReceiver(
  secrets: readonly string[],
  fallback: ReceiverBehaviour = answer(204),
): Promise<TestReceiver> {
  const received: ReceivedCallback[] = [];
  const behaviours: ReceiverBehaviour[] = [];
  const waiters = new Map<number, (callback: ReceivedCallback) => void>();

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const rawBody = Buffer.concat(chunks);
      const signature = request.headers["x-service-signature"];
      const header = typeof signature === "string" ? signature : undefined;
      let verifiedByOctokit = false;
      for (const secret of secrets) {
        if (header && (await octokitVerify(secret, rawBody.toString("utf8"), header).catch(() => false))) {
          verifiedByOctokit = true;
        }
      }
      const callback: ReceivedCallback = {
        path: request.url ?? "",
        headers: request.headers,
        rawBody,
        verifiedByOctokit,
        verifiedByClient: verifyCallback(rawBody, header, secrets),
      };
      received.push(callback);
      (behaviours.shift() ?? fallback)(request, response);
      waiters.get(received.length)?.(callback);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    received,
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    queue: (...next) => behaviours.push(...next),
    waitForRequest(count) {
      const already = received[count - 1];
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => waiters.set(count, resolve));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
