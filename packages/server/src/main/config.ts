import { availableParallelism } from "node:os";
import { type Static, Type as T } from "@sinclair/typebox";
import { Value, ValuePointer } from "@sinclair/typebox/value";

/** Everything `pictor serve` can be told, from flags first, then environment. Parsed once; fails fast. */
export const ServeConfig = T.Object({
  port: T.Integer({ minimum: 0, maximum: 65535 }),
  host: T.String({ minLength: 1 }),
  dataDir: T.String({ minLength: 1 }),
  workers: T.Integer({ minimum: 1, maximum: 64 }),
  outboundAllowlist: T.Array(T.String({ pattern: "^[^\\s:]+:\\d{1,5}$|^\\[[0-9a-fA-F:.]+\\]:\\d{1,5}$" })),
  publicUrl: T.Optional(T.String({ pattern: "^https?://" })),
  logLevel: T.Union(["fatal", "error", "warn", "info", "debug", "trace", "silent"].map((l) => T.Literal(l))),
  rateLimitBurst: T.Integer({ minimum: 1 }),
  rateLimitPerSecond: T.Number({ exclusiveMinimum: 0 }),
  openSignup: T.Boolean(),
  maxQueued: T.Integer({ minimum: 1 }),
  examplesDir: T.Optional(T.String({ minLength: 1 })),
});
export type ServeConfig = Static<typeof ServeConfig>;

export interface ServeFlags {
  port?: string;
  host?: string;
  data?: string;
  workers?: string;
  publicUrl?: string;
  examples?: string;
}

type Env = Record<string, string | undefined>;

export function dataDirFrom(flag: string | undefined, env: Env): string {
  return flag ?? env.PICTOR_DATA_DIR ?? "./data";
}

const num = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : Number(v));

export function readServeConfig(flags: ServeFlags, env: Env): ServeConfig {
  const raw = {
    port: num(flags.port ?? env.PICTOR_PORT ?? env.PORT) ?? 8080,
    host: flags.host ?? env.PICTOR_HOST ?? "127.0.0.1",
    dataDir: dataDirFrom(flags.data, env),
    workers: num(flags.workers ?? env.PICTOR_WORKERS) ?? availableParallelism(),
    outboundAllowlist: (env.PICTOR_OUTBOUND_ALLOWLIST ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    publicUrl: flags.publicUrl ?? env.PICTOR_PUBLIC_URL,
    logLevel: env.PICTOR_LOG_LEVEL ?? "info",
    rateLimitBurst: num(env.PICTOR_RATE_LIMIT_BURST) ?? 100,
    rateLimitPerSecond: num(env.PICTOR_RATE_LIMIT_PER_SECOND) ?? 20,
    openSignup: (env.PICTOR_OPEN_SIGNUP ?? "true") !== "false",
    maxQueued: num(env.PICTOR_MAX_QUEUED) ?? 10_000,
    examplesDir: flags.examples ?? env.PICTOR_EXAMPLES_DIR,
  };
  if (raw.publicUrl === undefined) delete raw.publicUrl;
  if (raw.examplesDir === undefined) delete raw.examplesDir;
  const errors = [...Value.Errors(ServeConfig, raw)];
  if (errors.length > 0) {
    const lines = errors.map(
      (e) =>
        `  ${e.path.slice(1) || "config"}: ${e.message} (got ${JSON.stringify(ValuePointer.Get(raw, e.path))})`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return raw as ServeConfig;
}

export class ConfigError extends Error {}
