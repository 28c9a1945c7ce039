import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { findFfmpeg } from "@pictor/render-node/ffmpeg";
import { type Static, Type as T } from "@sinclair/typebox";
import { Value, ValuePointer } from "@sinclair/typebox/value";
import type { S3BlobStoreConfig } from "../adapters/s3/blob-store.ts";
import { S3ConfigError, s3ConfigFromEnv } from "../adapters/s3/config.ts";
import { DEFAULT_DOWNLOAD_LIMIT } from "../http/download-limits.ts";
import { DEFAULT_PREPARE_BUDGET } from "../http/routes/editor-prepare-image.ts";
import type { BackendConfig } from "./backend.ts";
import { type MemoryPlan, machineMemoryMiB, planMemory } from "./memory-plan.ts";
import { readTracingConfig, type TracingConfig } from "./tracing-config.ts";

/** The scalar settings of `pictor serve`, from flags first, then environment. */
export const ServeSettings = T.Object({
  role: T.Union([T.Literal("api"), T.Literal("worker"), T.Literal("all")]),
  port: T.Integer({ minimum: 0, maximum: 65535 }),
  host: T.String({ minLength: 1 }),
  dataDir: T.String({ minLength: 1 }),
  workers: T.Integer({ minimum: 1, maximum: 64 }),
  /** MiB this process may use; render threads and their caches are chosen to fit (memory-plan.ts). */
  memoryBudget: T.Optional(T.Integer({ minimum: 256, maximum: 16 * 1024 * 1024 })),
  outboundAllowlist: T.Array(T.String({ pattern: "^[^\\s:]+:\\d{1,5}$|^\\[[0-9a-fA-F:.]+\\]:\\d{1,5}$" })),
  publicUrl: T.Optional(T.String({ pattern: "^https?://" })),
  logLevel: T.Union(["fatal", "error", "warn", "info", "debug", "trace", "silent"].map((l) => T.Literal(l))),
  rateLimitBurst: T.Integer({ minimum: 1 }),
  rateLimitPerSecond: T.Number({ exclusiveMinimum: 0 }),
  /** Failed authentications per IP address (missing, malformed, unknown, revoked key) before 429. */
  authFailuresBurst: T.Integer({ minimum: 1 }),
  authFailuresPerSecond: T.Number({ exclusiveMinimum: 0 }),
  /** File routes (`/a/`, `/o/`, `/i/`): downloads per credential at once and per second after. */
  downloadsBurst: T.Integer({ minimum: 1 }),
  downloadsPerSecond: T.Number({ exclusiveMinimum: 0 }),
  /** File routes: downloads per client address at once and per second after. */
  downloadsIpBurst: T.Integer({ minimum: 1 }),
  downloadsIpPerSecond: T.Number({ exclusiveMinimum: 0 }),
  /**
   * Peers whose X-Forwarded-For / -Host / -Proto are believed (Fastify's trustProxy): false, a
   * number of proxy hops, or comma-separated addresses, CIDR ranges and `loopback`, `linklocal`,
   * `uniquelocal`.
   */
  trustProxy: T.Union([T.Literal(false), T.Integer({ minimum: 1, maximum: 32 }), T.String({ minLength: 1 })]),
  /** Bytes of stored files per account past which uploads and imports are refused; 0: no quota. */
  storageQuotaBytes: T.Integer({ minimum: 0 }),
  /** POST /v1/editor/prepare-image: megapixels of answers per account at once and per second after. */
  prepareMegapixelsBurst: T.Number({ minimum: 16 }),
  prepareMegapixelsPerSecond: T.Number({ exclusiveMinimum: 0 }),
  openSignup: T.Boolean(),
  maxQueued: T.Integer({ minimum: 1 }),
  /** Renders of one account that may run at once (0: no cap beyond the render threads). */
  accountConcurrency: T.Integer({ minimum: 0 }),
  /**
   * While several accounts render, none may hold every render thread of a process: one stays free for
   * the others (adapters/queue/spare-thread.ts). Only with two or more render threads.
   */
  spareThread: T.Boolean(),
  /**
   * A worker process takes one job per render thread ahead, to wait in the thread behind the one it
   * renders, while one account's renders queue up (adapters/postgres/render-queue.ts, queuedPerThread).
   */
  workerPrefetch: T.Boolean(),
  /** On-demand image URLs: bytes one account's cached outputs may take; its LRU beyond it. */
  imageCacheMaxBytes: T.Integer({ minimum: 0 }),
  /**
   * How long an image URL's cache miss waits for its render before answering 503 (the render goes on
   * and enters the cache). Below a CDN's origin timeout, so the CDN sees the 503, not its own error.
   */
  imageMissWaitSeconds: T.Number({ minimum: 0.05, maximum: 60 }),
  /** Cache misses (renders) an account's image URLs may cause at once, and per second after. */
  imageMissesBurst: T.Integer({ minimum: 1 }),
  imageMissesPerSecond: T.Number({ exclusiveMinimum: 0 }),
  examplesDir: T.Optional(T.String({ minLength: 1 })),
  /** Connections each process's state pool may open (plus pg-boss's and one LISTEN connection). */
  databasePoolMax: T.Integer({ minimum: 1, maximum: 200 }),
  /** How often pg-boss looks for expired jobs (a worker killed mid-render): the redelivery delay floor. */
  queueSuperviseSeconds: T.Integer({ minimum: 1, maximum: 3600 }),
  /**
   * Seconds before a failed render job's first retry; each further retry waits about twice as long
   * (pg-boss's jittered exponential backoff, capped at a minute).
   */
  renderRetryDelaySeconds: T.Integer({ minimum: 1, maximum: 60 }),
  /**
   * A second port serving only /healthz, /readyz and /metrics: how a worker process (no API) is
   * probed and scraped. Absent: none.
   */
  healthPort: T.Optional(T.Integer({ minimum: 0, maximum: 65535 })),
  /** Set: /metrics answers only `Authorization: Bearer <token>`. */
  metricsToken: T.Optional(T.String({ minLength: 16 })),
  operatorToken: T.Optional(T.String({ minLength: 16 })),
  /** Off: nothing is counted and /metrics is not served (404). */
  metrics: T.Boolean(),
  /**
   * Seconds between SIGTERM (readiness turns 503 at once) and refusing new connections, for a load
   * balancer to take the process out of rotation first.
   */
  drainDelaySeconds: T.Number({ minimum: 0, maximum: 300 }),
  /**
   * Seconds a stop waits, once its renders in flight have ended and their callers are answered, for
   * the connections still open (a download being read, a request body being sent); then it closes them.
   * A client that stopped reading or sending never holds the process past it.
   */
  closeGraceSeconds: T.Number({ minimum: 0, maximum: 300 }),
});
export type ServeSettings = Static<typeof ServeSettings>;
export type Role = ServeSettings["role"];

/**
 * Where state and blobs live. The embedded default is one process (SQLite, files, in-process queue);
 * PostgreSQL carries state, ledger and the pg-boss queue for any number of API and worker processes,
 * with blobs on S3 or on a directory every process shares.
 */
export type Backend =
  | { state: "sqlite" }
  | {
      state: "postgres";
      databaseUrl: string;
      blobs: { kind: "s3"; s3: S3BlobStoreConfig } | { kind: "files" };
      /** Link-signing key shared by every process; null: the data dir's key file (shared dir). */
      signingSecret: Uint8Array | null;
    };

/** Everything `pictor serve` can be told. Parsed once; fails fast, naming every problem at once. */
export type ServeConfig = ServeSettings & {
  backend: Backend;
  /** Render threads (`workers` is their number) and cache sizes chosen for the memory budget. */
  memory: MemoryPlan;
  /** Where traces go (OTEL_EXPORTER_OTLP_*); absent or null: traces off. */
  tracing?: TracingConfig | null;
  /** The ffmpeg MP4 renders run (PICTOR_FFMPEG, else `ffmpeg` on PATH); null: mp4 is `format_unavailable`. */
  ffmpeg: string | null;
};

export interface ServeFlags {
  port?: string;
  host?: string;
  data?: string;
  workers?: string;
  memoryBudget?: string;
  publicUrl?: string;
  examples?: string;
  role?: string;
}

type Env = Record<string, string | undefined>;

const DEFAULT_DATA_DIR = "./data";

export function dataDirFrom(flag: string | undefined, env: Env): string {
  return flag ?? env.PICTOR_DATA_DIR ?? DEFAULT_DATA_DIR;
}

/** `1024`, `1024M`, `1.5G` (MiB, GiB) as whole MiB; anything else stays a string, which the schema refuses. */
const mebibytes = (v: string | undefined): number | string | undefined => {
  if (v === undefined || v.trim() === "") return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([mMgG]i?[bB]?)?\s*$/.exec(v);
  if (!match) return v;
  const unit = (match[2] ?? "m")[0]?.toLowerCase();
  return Math.floor(Number(match[1]) * (unit === "g" ? 1024 : 1));
};

/** `1073741824`, `500M`, `1G`, `1.5GiB` (K, M, G, T: powers of 1024) as whole bytes; else the text, which the schema refuses. */
const bytes = (v: string | undefined): number | string | undefined => {
  if (v === undefined || v.trim() === "") return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:([kKmMgGtT])(?:i?[bB])?|[bB])?\s*$/.exec(v);
  if (!match) return v;
  const power = " kmgt".indexOf((match[2] ?? " ").toLowerCase());
  return Math.floor(Number(match[1]) * 1024 ** power);
};

const TRUST_PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * PICTOR_TRUST_PROXY as Fastify's trustProxy: unset, empty or `false` is false; a whole number is a
 * hop count; else a list of addresses, CIDR ranges and proxy-addr's names, each checked here (`true`,
 * which would believe any client's X-Forwarded-For, is refused). Anything else stays an object the
 * schema refuses, so the error names the setting.
 */
const trustProxyOf = (v: string | undefined): string | number | false | { invalid: string } => {
  const text = v?.trim() ?? "";
  if (text === "" || text.toLowerCase() === "false") return false;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(",").map((e) => e.trim());
  const valid = entries.every((entry) => {
    if (TRUST_PROXY_NAMES.has(entry)) return true;
    const [address = "", prefix, ...rest] = entry.split("/");
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return false;
    return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
  });
  return valid ? entries.join(",") : { invalid: text };
};

const num = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : Number(v));

/** "true"/"false" (any case); anything else stays a string, which the schema then refuses. */
const bool = (v: string | undefined): boolean | string | undefined => {
  const word = v?.trim().toLowerCase();
  if (word === undefined || word === "") return undefined; // unset, as for numbers
  return word === "true" ? true : word === "false" ? false : v;
};

const onOff = (v: string | undefined): boolean | string | undefined => {
  const word = v?.trim().toLowerCase();
  if (word === "on") return true;
  if (word === "off") return false;
  return bool(v);
};

/** What each setting must be, as a person reads it in the error. */
const EXPECTED: Record<keyof ServeSettings, string> = {
  role: "api, worker or all",
  port: "a whole number from 0 to 65535",
  host: "an address to bind",
  dataDir: "a directory",
  workers: "a whole number from 1 to 64",
  memoryBudget: "at least 256 MiB, as 1024, 1024M or 1G",
  outboundAllowlist: "a comma-separated list of host:port",
  publicUrl: "an http:// or https:// URL",
  logLevel: "fatal, error, warn, info, debug, trace or silent",
  rateLimitBurst: "a whole number of at least 1",
  rateLimitPerSecond: "a number above 0",
  authFailuresBurst: "a whole number of at least 1",
  authFailuresPerSecond: "a number above 0",
  downloadsBurst: "a whole number of at least 1",
  downloadsPerSecond: "a number above 0",
  downloadsIpBurst: "a whole number of at least 1",
  downloadsIpPerSecond: "a number above 0",
  trustProxy:
    "false, a number of proxy hops (1 to 32), or comma-separated IP addresses, CIDR ranges, loopback, linklocal or uniquelocal",
  storageQuotaBytes: "a size in bytes, or with a unit (500M, 1G, 1.5G); 0 for no quota",
  prepareMegapixelsBurst: "a number of megapixels of at least 16 (one full-size answer)",
  prepareMegapixelsPerSecond: "a number above 0",
  openSignup: "true or false",
  maxQueued: "a whole number of at least 1",
  accountConcurrency: "a whole number (0 for no cap)",
  spareThread: "true or false",
  workerPrefetch: "true or false",
  imageCacheMaxBytes: "a whole number of bytes",
  imageMissWaitSeconds: "a number of seconds from 0.05 to 60",
  imageMissesBurst: "a whole number of at least 1",
  imageMissesPerSecond: "a number above 0",
  examplesDir: "a directory",
  databasePoolMax: "a whole number from 1 to 200",
  queueSuperviseSeconds: "a whole number from 1 to 3600",
  renderRetryDelaySeconds: "a whole number from 1 to 60",
  healthPort: "a whole number from 0 to 65535",
  metricsToken: "a token of at least 16 characters",
  operatorToken: "a token of at least 16 characters",
  metrics: "on or off",
  drainDelaySeconds: "a number of seconds from 0 to 300",
  closeGraceSeconds: "a number of seconds from 0 to 300",
};

export function readServeConfig(flags: ServeFlags, env: Env): ServeConfig {
  // Where each setting came from (the flag or variable a person typed, and its text), for errors.
  const origin: Partial<Record<keyof ServeSettings, { name: string; text: string }>> = {};
  const given = (
    key: keyof ServeSettings,
    flag: [name: string, value: string | undefined] | null,
    ...envNames: string[]
  ): string | undefined => {
    if (flag && flag[1] !== undefined) {
      origin[key] = { name: flag[0], text: flag[1] };
      return flag[1];
    }
    for (const name of envNames) {
      const value = env[name];
      if (value !== undefined) {
        origin[key] = { name, text: value };
        return value;
      }
    }
    return undefined;
  };
  const raw = {
    role: given("role", ["--role", flags.role], "PICTOR_ROLE") ?? "all",
    port: num(given("port", ["--port", flags.port], "PICTOR_PORT", "PORT")) ?? 8080,
    host: given("host", ["--host", flags.host], "PICTOR_HOST") ?? "127.0.0.1",
    dataDir: given("dataDir", ["--data", flags.data], "PICTOR_DATA_DIR") ?? DEFAULT_DATA_DIR,
    workers: num(given("workers", ["--workers", flags.workers], "PICTOR_WORKERS")) ?? availableParallelism(),
    memoryBudget: mebibytes(
      given("memoryBudget", ["--memory-budget", flags.memoryBudget], "PICTOR_MEMORY_BUDGET"),
    ),
    outboundAllowlist: (given("outboundAllowlist", null, "PICTOR_OUTBOUND_ALLOWLIST") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    publicUrl: given("publicUrl", ["--public-url", flags.publicUrl], "PICTOR_PUBLIC_URL"),
    logLevel: given("logLevel", null, "PICTOR_LOG_LEVEL") ?? "info",
    rateLimitBurst: num(given("rateLimitBurst", null, "PICTOR_RATE_LIMIT_BURST")) ?? 100,
    rateLimitPerSecond: num(given("rateLimitPerSecond", null, "PICTOR_RATE_LIMIT_PER_SECOND")) ?? 20,
    // 20 mistakes at once and one more a second: far above what a person or a client with a stale
    // key makes, while a flood of made-up keys reaches the key store at most once a second per address.
    authFailuresBurst: num(given("authFailuresBurst", null, "PICTOR_AUTH_FAILURES_BURST")) ?? 20,
    authFailuresPerSecond: num(given("authFailuresPerSecond", null, "PICTOR_AUTH_FAILURES_PER_SECOND")) ?? 1,
    // The file routes' limits (http/download-limits.ts explains the defaults).
    downloadsBurst:
      num(given("downloadsBurst", null, "PICTOR_DOWNLOADS_BURST")) ?? DEFAULT_DOWNLOAD_LIMIT.keyBurst,
    downloadsPerSecond:
      num(given("downloadsPerSecond", null, "PICTOR_DOWNLOADS_PER_SECOND")) ??
      DEFAULT_DOWNLOAD_LIMIT.keyPerSecond,
    downloadsIpBurst:
      num(given("downloadsIpBurst", null, "PICTOR_DOWNLOADS_IP_BURST")) ?? DEFAULT_DOWNLOAD_LIMIT.ipBurst,
    downloadsIpPerSecond:
      num(given("downloadsIpPerSecond", null, "PICTOR_DOWNLOADS_IP_PER_SECOND")) ??
      DEFAULT_DOWNLOAD_LIMIT.ipPerSecond,
    trustProxy: trustProxyOf(given("trustProxy", null, "PICTOR_TRUST_PROXY")),
    // 1 GiB of uploads and outputs per account: hundreds of photos and thousands of renders, while a
    // trial account cannot fill the disk.
    storageQuotaBytes: bytes(given("storageQuotaBytes", null, "PICTOR_STORAGE_QUOTA")) ?? 1024 ** 3,
    prepareMegapixelsBurst:
      num(given("prepareMegapixelsBurst", null, "PICTOR_PREPARE_MEGAPIXELS_BURST")) ??
      DEFAULT_PREPARE_BUDGET.megapixelsBurst,
    prepareMegapixelsPerSecond:
      num(given("prepareMegapixelsPerSecond", null, "PICTOR_PREPARE_MEGAPIXELS_PER_SECOND")) ??
      DEFAULT_PREPARE_BUDGET.megapixelsPerSecond,
    openSignup: bool(given("openSignup", null, "PICTOR_OPEN_SIGNUP")) ?? true,
    maxQueued: num(given("maxQueued", null, "PICTOR_MAX_QUEUED")) ?? 10_000,
    accountConcurrency: num(given("accountConcurrency", null, "PICTOR_ACCOUNT_CONCURRENCY")) ?? 0,
    spareThread: bool(given("spareThread", null, "PICTOR_SPARE_THREAD")) ?? true,
    workerPrefetch: bool(given("workerPrefetch", null, "PICTOR_WORKER_PREFETCH")) ?? true,
    imageCacheMaxBytes: num(given("imageCacheMaxBytes", null, "PICTOR_IMAGE_CACHE_MAX_BYTES")) ?? 1024 ** 3,
    imageMissWaitSeconds: num(given("imageMissWaitSeconds", null, "PICTOR_IMAGE_MISS_WAIT_SECONDS")) ?? 25,
    imageMissesBurst: num(given("imageMissesBurst", null, "PICTOR_IMAGE_MISSES_BURST")) ?? 20,
    imageMissesPerSecond: num(given("imageMissesPerSecond", null, "PICTOR_IMAGE_MISSES_PER_SECOND")) ?? 5,
    examplesDir: given("examplesDir", ["--examples", flags.examples], "PICTOR_EXAMPLES_DIR"),
    databasePoolMax: num(given("databasePoolMax", null, "PICTOR_DB_POOL_MAX")) ?? 10,
    queueSuperviseSeconds: num(given("queueSuperviseSeconds", null, "PICTOR_QUEUE_SUPERVISE_SECONDS")) ?? 10,
    renderRetryDelaySeconds:
      num(given("renderRetryDelaySeconds", null, "PICTOR_RENDER_RETRY_DELAY_SECONDS")) ?? 2,
    healthPort: num(given("healthPort", null, "PICTOR_HEALTH_PORT")),
    metricsToken: given("metricsToken", null, "PICTOR_METRICS_TOKEN"),
    operatorToken: given("operatorToken", null, "PICTOR_OPERATOR_TOKEN"),
    metrics: onOff(given("metrics", null, "PICTOR_METRICS")) ?? true,
    drainDelaySeconds: num(given("drainDelaySeconds", null, "PICTOR_DRAIN_DELAY_SECONDS")) ?? 0,
    closeGraceSeconds: num(given("closeGraceSeconds", null, "PICTOR_CLOSE_GRACE_SECONDS")) ?? 10,
  };
  if (raw.publicUrl === undefined) delete raw.publicUrl;
  if (raw.examplesDir === undefined) delete raw.examplesDir;
  if (raw.memoryBudget === undefined) delete raw.memoryBudget;
  if (raw.healthPort === undefined) delete raw.healthPort;
  if (raw.metricsToken === undefined) delete raw.metricsToken;
  if (raw.operatorToken === undefined) delete raw.operatorToken;
  // One line per setting, naming what was typed: `PICTOR_PORT: must be … (got "abc")`.
  const lines = [
    ...new Set(
      [...Value.Errors(ServeSettings, raw)].map((e) => {
        const key = (e.path.split("/")[1] ?? "") as keyof ServeSettings;
        const from = origin[key];
        const got = from && key !== "outboundAllowlist" ? from.text : ValuePointer.Get(raw, e.path);
        // A secret is not echoed into an error someone may paste.
        if (key === "metricsToken" || key === "operatorToken")
          return `${from?.name ?? key}: must be ${EXPECTED[key]}`;
        return `${from?.name ?? key}: must be ${EXPECTED[key] ?? e.message} (got ${JSON.stringify(got)})`;
      }),
    ),
  ];
  const tracing = readTracingConfig(env, lines);
  const backend = readBackend(
    raw as ServeSettings,
    { dataDirGiven: origin.dataDir !== undefined },
    env,
    lines,
  );
  if (lines.length > 0 || backend === null) {
    throw new ConfigError(`Invalid configuration:\n${lines.map((l) => `  ${l}`).join("\n")}`);
  }
  const settings = raw as ServeSettings;
  const memory = planMemory({
    requestedThreads: settings.workers,
    budgetMiB: settings.memoryBudget,
    machineMiB: machineMemoryMiB(),
  });
  return { ...settings, workers: memory.threads, backend, memory, tracing, ffmpeg: findFfmpeg(env) };
}

/**
 * Where the admin commands (`accounts`, `keys`, `credits`, `templates`) find state: the backend
 * `pictor serve --role all` would use with the same flags and environment (DATABASE_URL, S3_*,
 * PICTOR_SIGNING_SECRET, --data / PICTOR_DATA_DIR, --examples / PICTOR_EXAMPLES_DIR), with its rules
 * and messages. Serving settings (port, threads, limits) are not read: a typo there is serve's to report.
 */
export function readBackendConfig(
  flags: { data?: string; examples?: string },
  env: Env,
): BackendConfig & {
  /** --data or PICTOR_DATA_DIR was given, rather than the default ./data. */
  dataDirGiven: boolean;
} {
  const dataDirGiven = flags.data !== undefined || env.PICTOR_DATA_DIR !== undefined;
  const problems: string[] = [];
  const backend = readBackend({ role: "all" }, { dataDirGiven }, env, problems);
  if (problems.length > 0 || backend === null) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((l) => `  ${l}`).join("\n")}`);
  }
  const examplesDir = flags.examples ?? env.PICTOR_EXAMPLES_DIR;
  return {
    role: "all",
    dataDir: dataDirFrom(flags.data, env),
    ...(examplesDir ? { examplesDir } : {}),
    // One command at a time: a connection for it and one to spare.
    databasePoolMax: 2,
    backend,
    dataDirGiven,
  };
}

const S3_VARS = ["S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_PREFIX"];

/** Chooses the backend from DATABASE_URL and S3_*; every problem is appended to `problems`. */
function readBackend(
  settings: Pick<ServeSettings, "role" | "publicUrl">,
  given: { dataDirGiven: boolean },
  env: Env,
  problems: string[],
): Backend | null {
  let s3: S3BlobStoreConfig | null = null;
  try {
    s3 = s3ConfigFromEnv(env);
  } catch (error) {
    if (!(error instanceof S3ConfigError)) throw error;
    problems.push(
      ...error.message
        .split("\n")
        .slice(1)
        .map((l) => l.trim()),
    );
  }
  if (!env.S3_BUCKET?.trim()) {
    const stray = S3_VARS.filter((name) => env[name]?.trim());
    if (stray.length > 0)
      problems.push(`S3_BUCKET is required when ${stray.join(", ")} ${stray.length > 1 ? "are" : "is"} set`);
  }
  const databaseUrl = env.DATABASE_URL?.trim();
  // An unknown role is reported with the settings; these checks are for the two real ones.
  const splitRole = settings.role === "api" || settings.role === "worker";
  if (!databaseUrl) {
    if (splitRole) {
      problems.push(
        `--role ${settings.role} needs DATABASE_URL (PostgreSQL): without it Pictor runs the embedded default, API and render workers in one process (--role all)`,
      );
    }
    if (env.S3_BUCKET?.trim()) {
      problems.push(
        "S3_BUCKET needs DATABASE_URL: the embedded default keeps state and blobs in the data directory",
      );
    }
    return { state: "sqlite" };
  }
  let url: URL | null = null;
  try {
    url = new URL(databaseUrl);
  } catch {}
  if (!url || (url.protocol !== "postgres:" && url.protocol !== "postgresql:")) {
    problems.push("DATABASE_URL must be a postgres:// or postgresql:// URL");
  }
  const hasS3 = env.S3_BUCKET?.trim() !== undefined && env.S3_BUCKET.trim() !== "";
  if (!hasS3 && splitRole && !given.dataDirGiven) {
    problems.push(
      `--role ${settings.role} with DATABASE_URL needs somewhere every process reads and writes blobs: S3_BUCKET (with S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_ENDPOINT for non-AWS stores), or a data directory shared by all processes (--data or PICTOR_DATA_DIR)`,
    );
  }
  if (settings.role === "worker" && settings.publicUrl === undefined) {
    problems.push(
      "--role worker needs PICTOR_PUBLIC_URL (or --public-url): completion callbacks carry absolute links to the API",
    );
  }
  let signingSecret: Uint8Array | null = null;
  const secret = env.PICTOR_SIGNING_SECRET?.trim();
  if (secret) {
    if (/^[0-9a-fA-F]{64,}$/.test(secret) && secret.length % 2 === 0) {
      signingSecret = new Uint8Array(Buffer.from(secret, "hex"));
    } else {
      problems.push("PICTOR_SIGNING_SECRET must be at least 32 bytes as hex (e.g. `openssl rand -hex 32`)");
    }
  } else if (hasS3) {
    problems.push(
      "PICTOR_SIGNING_SECRET is required with S3_BUCKET: every API and worker process must sign output links with the same key (`openssl rand -hex 32`)",
    );
  }
  if (problems.length > 0) return null;
  return {
    state: "postgres",
    databaseUrl: databaseUrl,
    blobs: s3 ? { kind: "s3", s3 } : { kind: "files" },
    signingSecret,
  };
}

export class ConfigError extends Error {}
