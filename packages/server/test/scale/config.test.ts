import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ConfigError, readServeConfig } from "../../src/main/config.ts";

const PICTOR_BIN = fileURLToPath(new URL("../../bin/pictor.js", import.meta.url));
const S3 = {
  S3_BUCKET: "pictor-prod",
  S3_REGION: "eu-central-1",
  S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
  S3_SECRET_ACCESS_KEY: "secret",
};
const SECRET = { PICTOR_SIGNING_SECRET: "ab".repeat(32) };
const DB = { DATABASE_URL: "postgres://pictor@db.internal:5432/pictor" };

const problems = (flags: Record<string, string>, env: Record<string, string>) => {
  try {
    readServeConfig(flags, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return "";
};

describe("pictor serve configuration: one backend, every problem named at once", () => {
  it("is the embedded default without DATABASE_URL, role all", () => {
    const config = readServeConfig({}, {});
    expect(config.role).toBe("all");
    expect(config.backend).toEqual({ state: "sqlite" });
  });

  it("is PostgreSQL + S3 with both configured, for every role", () => {
    for (const role of ["api", "worker", "all"]) {
      const config = readServeConfig(
        { role, publicUrl: "https://img.example.com" },
        { ...DB, ...S3, ...SECRET },
      );
      expect(config.role).toBe(role);
      expect(config.backend).toMatchObject({
        state: "postgres",
        databaseUrl: DB.DATABASE_URL,
        blobs: { kind: "s3", s3: { bucket: "pictor-prod", region: "eu-central-1" } },
      });
    }
  });

  it("is PostgreSQL + a shared data dir when one is given instead of S3", () => {
    const config = readServeConfig(
      { role: "worker", data: "/srv/pictor", publicUrl: "https://x.example" },
      DB,
    );
    expect(config.backend).toMatchObject({
      state: "postgres",
      blobs: { kind: "files" },
      signingSecret: null,
    });
  });

  it("refuses api/worker without DATABASE_URL, and S3 without PostgreSQL", () => {
    expect(problems({ role: "worker" }, {})).toMatch(/--role worker needs DATABASE_URL/);
    expect(problems({ role: "api" }, {})).toMatch(/--role api needs DATABASE_URL/);
    expect(problems({}, { ...S3, ...SECRET })).toMatch(/S3_BUCKET needs DATABASE_URL/);
    expect(problems({ role: "manager" }, {})).toMatch(/role:/);
  });

  it("names the flag or variable that was typed, what it must be and what it got", () => {
    expect(problems({ role: "manager" }, {})).toBe(
      'Invalid configuration:\n  --role: must be api, worker or all (got "manager")',
    );
    expect(
      problems(
        {},
        {
          PICTOR_PORT: "abc",
          PICTOR_LOG_LEVEL: "verbose",
          PICTOR_OPEN_SIGNUP: "no",
          PICTOR_MAX_QUEUED: "x",
          PICTOR_OUTBOUND_ALLOWLIST: "127.0.0.1:80,nohost",
        },
      ).split("\n"),
    ).toEqual([
      "Invalid configuration:",
      '  PICTOR_PORT: must be a whole number from 0 to 65535 (got "abc")',
      '  PICTOR_OUTBOUND_ALLOWLIST: must be a comma-separated list of host:port (got "nohost")',
      '  PICTOR_LOG_LEVEL: must be fatal, error, warn, info, debug, trace or silent (got "verbose")',
      '  PICTOR_OPEN_SIGNUP: must be true or false (got "no")',
      '  PICTOR_MAX_QUEUED: must be a whole number of at least 1 (got "x")',
    ]);
    expect(problems({ port: "99999" }, { PICTOR_PORT: "1" })).toMatch(/--port: .* \(got "99999"\)/);
    expect(readServeConfig({}, { PICTOR_OPEN_SIGNUP: "FALSE" }).openSignup).toBe(false);
    expect(readServeConfig({}, { PICTOR_OPEN_SIGNUP: "true" }).openSignup).toBe(true);
    expect(readServeConfig({}, { PICTOR_OPEN_SIGNUP: "" }).openSignup).toBe(true);
  });

  it("keeps a spare render thread for other accounts by default; PICTOR_SPARE_THREAD=false turns it off", () => {
    expect(readServeConfig({}, {}).spareThread).toBe(true);
    expect(readServeConfig({}, { PICTOR_SPARE_THREAD: "false" }).spareThread).toBe(false);
    expect(problems({}, { PICTOR_SPARE_THREAD: "sometimes" })).toContain(
      'PICTOR_SPARE_THREAD: must be true or false (got "sometimes")',
    );
  });

  it("lets worker processes take a job ahead under a backlog by default; PICTOR_WORKER_PREFETCH=false turns it off", () => {
    expect(readServeConfig({}, {}).workerPrefetch).toBe(true);
    expect(readServeConfig({}, { PICTOR_WORKER_PREFETCH: "false" }).workerPrefetch).toBe(false);
    expect(problems({}, { PICTOR_WORKER_PREFETCH: "yes please" })).toContain(
      'PICTOR_WORKER_PREFETCH: must be true or false (got "yes please")',
    );
  });

  it("waits 2 s before a failed render job's first retry by default; PICTOR_RENDER_RETRY_DELAY_SECONDS sets it", () => {
    expect(readServeConfig({}, {}).renderRetryDelaySeconds).toBe(2);
    expect(readServeConfig({}, { PICTOR_RENDER_RETRY_DELAY_SECONDS: "5" }).renderRetryDelaySeconds).toBe(5);
    expect(problems({}, { PICTOR_RENDER_RETRY_DELAY_SECONDS: "0" })).toContain(
      'PICTOR_RENDER_RETRY_DELAY_SECONDS: must be a whole number from 1 to 60 (got "0")',
    );
  });

  it("reads the per-IP budget of failed authentications, 20 at once and 1 a second by default", () => {
    expect(readServeConfig({}, {})).toMatchObject({ authFailuresBurst: 20, authFailuresPerSecond: 1 });
    expect(
      readServeConfig({}, { PICTOR_AUTH_FAILURES_BURST: "50", PICTOR_AUTH_FAILURES_PER_SECOND: "0.5" }),
    ).toMatchObject({ authFailuresBurst: 50, authFailuresPerSecond: 0.5 });
    expect(
      problems({}, { PICTOR_AUTH_FAILURES_BURST: "0", PICTOR_AUTH_FAILURES_PER_SECOND: "0" }).split("\n"),
    ).toEqual([
      "Invalid configuration:",
      '  PICTOR_AUTH_FAILURES_BURST: must be a whole number of at least 1 (got "0")',
      '  PICTOR_AUTH_FAILURES_PER_SECOND: must be a number above 0 (got "0")',
    ]);
  });

  it("reads the download limits, the trusted proxy, the storage quota and the prepare-image budget, with their defaults", () => {
    expect(readServeConfig({}, {})).toMatchObject({
      downloadsBurst: 500,
      downloadsPerSecond: 100,
      downloadsIpBurst: 100,
      downloadsIpPerSecond: 50,
      trustProxy: false,
      storageQuotaBytes: 1024 ** 3,
      prepareMegapixelsBurst: 256,
      prepareMegapixelsPerSecond: 16,
    });
    const set = readServeConfig(
      {},
      {
        PICTOR_DOWNLOADS_BURST: "50",
        PICTOR_DOWNLOADS_PER_SECOND: "5",
        PICTOR_DOWNLOADS_IP_BURST: "20",
        PICTOR_DOWNLOADS_IP_PER_SECOND: "2.5",
        PICTOR_TRUST_PROXY: "10.0.0.0/8, 127.0.0.1,loopback,::1",
        PICTOR_STORAGE_QUOTA: "1.5G",
      },
    );
    expect(set).toMatchObject({
      downloadsBurst: 50,
      downloadsPerSecond: 5,
      downloadsIpBurst: 20,
      downloadsIpPerSecond: 2.5,
      trustProxy: "10.0.0.0/8,127.0.0.1,loopback,::1",
      storageQuotaBytes: Math.floor(1.5 * 1024 ** 3),
    });
    expect(readServeConfig({}, { PICTOR_TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(readServeConfig({}, { PICTOR_TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(readServeConfig({}, { PICTOR_STORAGE_QUOTA: "500M" }).storageQuotaBytes).toBe(500 * 1024 ** 2);
    expect(readServeConfig({}, { PICTOR_STORAGE_QUOTA: "0" }).storageQuotaBytes).toBe(0);
    // `true` would believe any client's X-Forwarded-For: refused, as are malformed entries.
    for (const value of ["true", "10.0.0.300", "10.0.0.0/33", "proxy.internal"]) {
      expect(problems({}, { PICTOR_TRUST_PROXY: value })).toContain(
        `PICTOR_TRUST_PROXY: must be false, a number`,
      );
    }
    expect(problems({}, { PICTOR_STORAGE_QUOTA: "lots" })).toContain(
      'PICTOR_STORAGE_QUOTA: must be a size in bytes, or with a unit (500M, 1G, 1.5G); 0 for no quota (got "lots")',
    );
  });

  it("counts metrics unless PICTOR_METRICS=off; traces only with an OTLP endpoint, over HTTP as JSON", () => {
    expect(readServeConfig({}, {}).metrics).toBe(true);
    expect(readServeConfig({}, { PICTOR_METRICS: "off" }).metrics).toBe(false);
    expect(readServeConfig({}, { PICTOR_METRICS: "on" }).metrics).toBe(true);
    expect(problems({}, { PICTOR_METRICS: "sometimes" })).toContain(
      'PICTOR_METRICS: must be on or off (got "sometimes")',
    );
    expect(readServeConfig({}, {}).tracing).toBeNull();
    expect(readServeConfig({}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).tracing).toEqual({
      endpoint: "http://collector:4318/v1/traces",
      serviceName: "pictor",
      batchDelayMs: 5000,
    });
    expect(
      readServeConfig(
        {},
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp",
          OTEL_SERVICE_NAME: "pictor-eu",
        },
      ).tracing,
    ).toMatchObject({ endpoint: "https://traces.example/otlp", serviceName: "pictor-eu" });
    for (const off of [{ OTEL_SDK_DISABLED: "true" }, { OTEL_TRACES_EXPORTER: "none" }]) {
      expect(
        readServeConfig({}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", ...off }).tracing,
      ).toBeNull();
    }
    expect(
      problems({}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }),
    ).toContain("OTEL_EXPORTER_OTLP_PROTOCOL: must be http/json");
  });

  it("refuses a worker with DATABASE_URL but neither S3 nor a shared data dir, naming both ways out", () => {
    const message = problems({ role: "worker", publicUrl: "https://x.example" }, DB);
    expect(message).toMatch(
      /--role worker with DATABASE_URL needs somewhere every process reads and writes blobs/,
    );
    expect(message).toMatch(/S3_BUCKET/);
    expect(message).toMatch(/PICTOR_DATA_DIR/);
  });

  it("lists every problem in one error: S3 settings, the signing key, the worker's public URL, the URL", () => {
    const message = problems(
      { role: "worker" },
      { DATABASE_URL: "mysql://nope", S3_BUCKET: "Bad_Bucket", S3_ENDPOINT: "ftp://x", S3_PREFIX: "/p" },
    );
    for (const expected of [
      /S3_REGION is required/,
      /S3_ACCESS_KEY_ID is required/,
      /S3_SECRET_ACCESS_KEY is required/,
      /S3_BUCKET must be 3-63 lowercase/,
      /S3_ENDPOINT must be an http\(s\) URL/,
      /S3_PREFIX must not start with '\/'/,
      /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/,
      /--role worker needs PICTOR_PUBLIC_URL/,
      /PICTOR_SIGNING_SECRET is required with S3_BUCKET/,
    ])
      expect(message).toMatch(expected);
  });

  it("refuses S3 settings without a bucket, and a short signing secret", () => {
    expect(problems({}, { ...DB, S3_ENDPOINT: "http://127.0.0.1:9000" })).toMatch(
      /S3_BUCKET is required when S3_ENDPOINT is set/,
    );
    expect(problems({}, { ...DB, PICTOR_SIGNING_SECRET: "abcd" })).toMatch(/at least 32 bytes as hex/);
  });

  it("the binary exits 2 with the message, before opening anything", () => {
    const run = spawnSync(process.execPath, [PICTOR_BIN, "serve", "--role", "worker"], {
      env: { PATH: process.env.PATH },
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--role worker needs DATABASE_URL/);
  });
});
