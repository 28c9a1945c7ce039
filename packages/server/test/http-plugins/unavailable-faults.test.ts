import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { isPostgresUnavailable } from "../../src/adapters/postgres/faults.ts";
import { isS3Unavailable } from "../../src/adapters/s3/faults.ts";
import { isSqliteBusy } from "../../src/adapters/sqlite/faults.ts";

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("which faults mean a backing store is briefly unavailable (503, not 500)", () => {
  it("PostgreSQL: a refused connection, as node-postgres really reports it", async () => {
    const client = new pg.Client({ connectionString: `postgres://x@127.0.0.1:${await closedPort()}/x` });
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).not.toBeNull();
    expect(isPostgresUnavailable(error)).toBe(true);
  });

  it("PostgreSQL: shutdown and connection SQLSTATEs and dropped connections, wrapped or not; not query errors", () => {
    const sqlState = (code: string) => Object.assign(new Error("x"), { code });
    expect(isPostgresUnavailable(sqlState("57P01"))).toBe(true);
    expect(isPostgresUnavailable(sqlState("08006"))).toBe(true);
    expect(isPostgresUnavailable(sqlState("53300"))).toBe(true);
    expect(isPostgresUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isPostgresUnavailable(new Error("render failed", { cause: sqlState("57P03") }))).toBe(true);
    expect(isPostgresUnavailable(sqlState("23505"))).toBe(false);
    expect(isPostgresUnavailable(sqlState("42601"))).toBe(false);
    expect(isPostgresUnavailable(new Error("boom"))).toBe(false);
    expect(isPostgresUnavailable("ECONNREFUSED")).toBe(false);
  });

  it("S3: unreachable, 502/503/504, SlowDown; not a missing key or a refused signature", () => {
    const s3Error = (name: string, httpStatusCode: number) =>
      Object.assign(new Error(name), { name, $metadata: { httpStatusCode } });
    expect(isS3Unavailable(Object.assign(new Error("connect"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isS3Unavailable(s3Error("ServiceUnavailable", 503))).toBe(true);
    expect(isS3Unavailable(s3Error("SlowDown", 503))).toBe(true);
    expect(isS3Unavailable(s3Error("BadGateway", 502))).toBe(true);
    expect(isS3Unavailable(s3Error("NoSuchKey", 404))).toBe(false);
    expect(isS3Unavailable(s3Error("SignatureDoesNotMatch", 403))).toBe(false);
  });

  it("SQLite: another connection holding the write lock past busy_timeout, as node:sqlite reports it", () => {
    const dir = mkdtempSync(join(tmpdir(), "pictor-busy-"));
    try {
      const file = join(dir, "x.db");
      const holder = new DatabaseSync(file);
      holder.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x)");
      const waiter = new DatabaseSync(file);
      waiter.exec("PRAGMA busy_timeout = 1");
      holder.exec("BEGIN IMMEDIATE");
      let error: unknown = null;
      try {
        waiter.exec("BEGIN IMMEDIATE");
      } catch (e) {
        error = e;
      }
      holder.exec("ROLLBACK");
      expect(isSqliteBusy(error)).toBe(true);
      let constraint: unknown = null;
      try {
        waiter.exec("CREATE TABLE t (x)");
      } catch (e) {
        constraint = e;
      }
      expect(constraint).not.toBeNull();
      expect(isSqliteBusy(constraint)).toBe(false);
      holder.close();
      waiter.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
