import type { App } from "../http/app-types.ts";
import type { ServeConfig } from "./config.ts";

export interface RunningServer {
  /** Where the HTTP API listens; "" for a `--role worker` process, which serves no HTTP. */
  url: string;
  /** Set only on the very first start (no account yet): the trial account's key (shown once). */
  firstStart: { accountId: string; apiKey: string } | null;
  /** Stop accepting, let in-flight renders finish, close everything. */
  close(): Promise<void>;
  /** Resolves once every render worker has loaded its engine (at once for a `--role api` process). */
  workersReady(): Promise<void>;
}

export function logOptions(config: Pick<ServeConfig, "logLevel">) {
  return {
    level: config.logLevel,
    // Standard output is for the one-time banner (URL, first key); logs go to standard error.
    stream: process.stderr,
    // Keys never reach the logs, whatever a future serializer decides to include.
    redact: {
      paths: ["req.headers.authorization", "headers.authorization", "*.api_key", "*.secret"],
      censor: "[redacted]",
    },
  };
}

/** Listens as configured; answers the base URL a client on this machine reaches it at. */
export async function listen(app: App, config: Pick<ServeConfig, "port" | "host">): Promise<string> {
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const host = config.host.includes(":")
    ? `[${config.host}]`
    : config.host === "0.0.0.0"
      ? "127.0.0.1"
      : config.host;
  return `http://${host}:${port}`;
}
