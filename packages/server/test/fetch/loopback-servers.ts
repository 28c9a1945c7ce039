import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from "node:net";
import type { ResolvedAddress } from "../../src/adapters/fetch/resolve-target.ts";

// Real servers on loopback for the outbound-fetch tests. No controllable DNS
// server runs in the test environment, so DNS answers are injected through
// createSafeFetch's `lookup` option (see fakeDns); the sockets are real.

export interface RunningServer {
  host: string;
  port: number;
  /** Requests (HTTP) or connections (TCP) received so far. */
  hits: string[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export async function startHttpServer(host: string, handler: Handler, port = 0): Promise<RunningServer> {
  const hits: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handler(req, res, Buffer.concat(chunks)));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  return listen(server, host, port, hits, sockets);
}

export async function startTcpServer(
  host: string,
  onConnection: (socket: Socket) => void,
): Promise<RunningServer> {
  const hits: string[] = [];
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    hits.push("connection");
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    onConnection(socket);
  });
  return listen(server, host, 0, hits, sockets);
}

/** A port on which nothing listens (bound once, then released). */
export async function closedPort(host: string): Promise<number> {
  const server = await startTcpServer(host, () => {});
  await server.close();
  return server.port;
}

function listen(
  server: Server,
  host: string,
  port: number,
  hits: string[],
  sockets: Set<Socket>,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      resolve({
        host,
        port: (server.address() as AddressInfo).port,
        hits,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A lookup answering from a table; counts the questions it was asked. */
export function fakeDns(table: Record<string, ResolvedAddress[]>): {
  lookup: (hostname: string) => Promise<ResolvedAddress[]>;
  asked: string[];
} {
  const asked: string[] = [];
  return {
    asked,
    lookup: async (hostname) => {
      asked.push(hostname);
      const answer = table[hostname];
      if (answer === undefined)
        throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      return answer;
    },
  };
}

export const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
export const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });
