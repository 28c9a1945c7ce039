import type { Lookup } from "../adapters/fetch/resolve-target.ts";
import type { App } from "../http/app-types.ts";
import type { ServeConfig } from "./config.ts";
import type { ProcessLog } from "./process-log.ts";

export interface RunningServer {
  /** Where the HTTP API listens; "" for a `--role worker` process, which serves no HTTP. */
  url: string;
  /**
   * Set only on the very first start of the embedded mode (no account yet): the trial account's key
   * (shown once). The scaled mode never creates one.
   */
  firstStart: { accountId: string; apiKey: string; starterTemplates: number } | null;
  /** Stop accepting, let in-flight renders finish, close everything. */
  close(): Promise<void>;
  /** Resolves once every render worker has loaded its engine (at once for a `--role api` process). */
  workersReady(): Promise<void>;
  /** Render threads this process runs (0 for `--role api`). */
  renderThreads: number;
  /** Where /healthz, /readyz and /metrics answer on PICTOR_HEALTH_PORT; null without one. */
  healthUrl: string | null;
  /** The process's logger (JSON lines on standard error). */
  log: ProcessLog;
  /** Not ready from now on (/readyz 503), while everything else still works: the start of a stop. */
  drain(): void;
}

export function logOptions(
  config: Pick<ServeConfig, "logLevel">,
  // Standard output is for the one-time banner (URL, first key); logs go to standard error.
  stream: NodeJS.WritableStream = process.stderr,
) {
  return {
    level: config.logLevel,
    stream,
    // Keys never reach the logs, whatever a future serializer decides to include.
    redact: {
      paths: ["req.headers.authorization", "headers.authorization", "*.api_key", "*.secret"],
      censor: "[redacted]",
    },
    serializers: {
      req: (request: { method: string; url: string; host?: string; ip?: string }) => ({
        method: request.method,
        url: loggableUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
    },
  };
}

/**
 * The request URL as logged. A query string can hold a key sent by mistake (`?api_key=sk_live_…`)
 * or an output link's signature, and an asset file name is the capability that serves it: neither
 * is written down. The path, which says what was asked for, stays.
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf("?");
  const path = (q === -1 ? url : url.slice(0, q)).replace(/^\/a\/[^/]+/, "/a/[redacted]");
  return q === -1 ? path : `${path}?[redacted]`;
}

/**
 * buildApp's options for the limits of what is heavy to answer (the file routes' downloads, the
 * editor's prepared images) and the trusted proxy that tells client addresses, from `pictor serve`'s
 * settings.
 */
export function fileRouteOptions(config: ServeConfig) {
  return {
    downloadLimit: {
      keyBurst: config.downloadsBurst,
      keyPerSecond: config.downloadsPerSecond,
      ipBurst: config.downloadsIpBurst,
      ipPerSecond: config.downloadsIpPerSecond,
    },
    trustProxy: config.trustProxy,
    prepareImageBudget: {
      megapixelsBurst: config.prepareMegapixelsBurst,
      megapixelsPerSecond: config.prepareMegapixelsPerSecond,
      bytesInFlight: config.memory.editorImageBytes,
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

/** What only tests set: never read from configuration. */
export interface ServeTestHooks {
  /** DNS answers for the API process's outbound guard (webhook checks and deliveries). */
  lookup?: Lookup;
  /**
   * Render threads break their CanvasKit instance (as a WebAssembly trap leaves it) and throw a
   * trap when they draw a document with this key: proves one render cannot poison a thread.
   */
  trapOnDocumentKey?: string;
  /** Where the process's log lines go instead of standard error. */
  logStream?: NodeJS.WritableStream;
}
