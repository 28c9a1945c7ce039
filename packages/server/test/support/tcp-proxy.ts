import { createConnection, createServer, type Socket } from "node:net";

export interface TcpProxy {
  port: number;
  /** The service goes away: open connections are cut and new ones are reset at once. */
  cut(): void;
  /** The service is back: new connections reach it again. */
  restore(): void;
  /** Resolves at the next connection refused while cut. */
  nextRefusal(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy in front of a real service (PostgreSQL, S3), for outage tests: the service
 * keeps running, and the process under test sees it vanish and come back exactly when the test says.
 */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let up = true;
  const refusalWaiters: (() => void)[] = [];
  const server = createServer((client) => {
    if (!up) {
      client.resetAndDestroy();
      for (const wake of refusalWaiters.splice(0)) wake();
      return;
    }
    const upstream = createConnection({ host: "127.0.0.1", port: targetPort });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      up = false;
      for (const socket of open) socket.resetAndDestroy();
    },
    restore() {
      up = true;
    },
    nextRefusal() {
      return new Promise((resolve) => refusalWaiters.push(resolve));
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
