import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { expect, inject, it } from "vitest";
import { migrate } from "../../src/adapters/postgres/migrations.ts";
import { createPgPool } from "../../src/adapters/postgres/pool.ts";
import { api } from "../api/support.ts";
import { newDatabase, testBackend } from "../api-pg/backend.ts";
import { exited, runPictor, scratchForPictor, spawnServe } from "./serve-process.ts";

// The admin commands on the backend `pictor serve` uses with the same settings. This file is in the
// server-pg project too (vitest.config.ts API_SUITE): there every test runs on a fresh PostgreSQL
// database with S3, as an operator of a scaled deployment runs the commands; on the embedded project,
// on SQLite in the data directory.

const OG_CARD = fileURLToPath(new URL("../../../../examples/templates/og-card.json", import.meta.url));
const { dir, children } = scratchForPictor("pictor-admin-");

interface Deployment {
  /** The working directory the commands run in: on PostgreSQL nothing may appear there. */
  cwd: string;
  /** Added to the commands' environment: DATABASE_URL, S3_* and PICTOR_SIGNING_SECRET, or nothing. */
  env: Record<string, string>;
  /** The database the commands must say they used. */
  where: string;
  databaseUrl: string | null;
}

async function deployment(): Promise<Deployment> {
  const cwd = mkdtempSync(join(dir, "cwd-"));
  if (testBackend() === "sqlite") {
    return { cwd, env: {}, where: `SQLite ${join(cwd, "data", "pictor.db")}`, databaseUrl: null };
  }
  const services = inject("pictorPgS3");
  const databaseUrl = await newDatabase(services.postgresUrl);
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  return {
    cwd,
    env: {
      DATABASE_URL: databaseUrl,
      S3_ENDPOINT: services.s3.endpoint,
      S3_REGION: services.s3.region,
      S3_BUCKET: services.s3.bucket,
      S3_ACCESS_KEY_ID: services.s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: services.s3.secretAccessKey,
      S3_PREFIX: `${name}/`,
      PICTOR_SIGNING_SECRET: randomBytes(32).toString("hex"),
    },
    where: `PostgreSQL ${url.hostname}:${url.port}/${name}`,
    databaseUrl,
  };
}

const pictorIn = (d: Pick<Deployment, "cwd" | "env">) => (args: string[]) =>
  runPictor(args, { cwd: d.cwd, env: d.env, running: children });

it("accounts, credits, keys and templates act on the database serve uses and say which; a server on it accepts the keys and renders the pushed template", async () => {
  const d = await deployment();
  const pictor = pictorIn(d);
  const onSqlite = d.databaseUrl === null;

  const created = await pictor(["accounts", "create", "--name", "ops", "--json"]);
  expect(created.code, created.stderr).toBe(0);
  expect(created.stderr).toBe(`pictor: wrote to ${d.where}\n`);
  const first = JSON.parse(created.stdout) as { account_id: string; api_key: string };
  const account = first.account_id;
  // On PostgreSQL + S3 the command leaves nothing in the directory it ran in: no ./data/pictor.db.
  expect(existsSync(join(d.cwd, "data", "pictor.db"))).toBe(onSqlite);
  if (!onSqlite) expect(readdirSync(d.cwd)).toEqual([]);

  const granted = await pictor(["credits", "grant", account, "12", "--json"]);
  expect(granted.code, granted.stderr).toBe(0);
  expect(JSON.parse(granted.stdout)).toEqual({ account_id: account, granted: 12, balance: 42 });
  expect(granted.stderr).toBe(`pictor: wrote to ${d.where}\n`);
  const shown = await pictor(["credits", "show", account, "--json"]);
  expect(JSON.parse(shown.stdout)).toEqual({ account_id: account, balance: 42 });
  expect(shown.stderr).toBe(`pictor: read from ${d.where}\n`);

  const issued = await pictor(["keys", "create", "--account", account, "--name", "ci", "--json"]);
  expect(issued.code, issued.stderr).toBe(0);
  const fresh = JSON.parse(issued.stdout) as { key_id: string; api_key: string };

  const other = await pictor(["accounts", "create", "--name", "bare", "--credits", "0", "--no-starters"]);
  expect(other.code, other.stderr).toBe(0);
  const listed = await pictor(["accounts", "list", "--json"]);
  expect(listed.code, listed.stderr).toBe(0);
  const accounts = JSON.parse(listed.stdout) as { account_id: string; name: string; balance: number }[];
  expect(accounts.map(({ name, balance }) => ({ name, balance }))).toEqual([
    { name: "ops", balance: 42 },
    { name: "bare", balance: 0 },
  ]);
  expect(accounts[0]?.account_id).toBe(account);

  const keys = await pictor(["keys", "list", "--account", account, "--json"]);
  expect((JSON.parse(keys.stdout) as { name: string }[]).map((k) => k.name)).toEqual(["default", "ci"]);

  // Images a document names go where serve keeps blobs (S3 there), and the template renders with them.
  const pushed = await pictor(["templates", "push", OG_CARD, "--account", account, "--publish"]);
  expect(pushed.code, pushed.stderr).toBe(0);
  expect(pushed.stdout).toMatch(/^Updated blog-og-card \(tpl_\w+\), published version 2, 1 new image asset/);
  if (!onSqlite) expect(readdirSync(d.cwd)).toEqual([]);

  const server = await spawnServe(
    join(d.cwd, "data"),
    { ...process.env, PICTOR_LOG_LEVEL: "warn", ...d.env },
    children,
  );
  // The accounts were there before the first start: no trial account.
  expect(server.stdout()).not.toContain("Trial account");
  for (const key of [first.api_key, fresh.api_key]) {
    const res = await api(server, "GET", "/v1/account", { key });
    expect(res.status).toBe(200);
    expect((res.body as { id: string }).id).toBe(account);
  }
  const rendered = await api(server, "POST", "/v1/renders", {
    key: fresh.api_key,
    body: { template: "blog-og-card", modifications: [], wait: true },
  });
  expect(rendered.status, JSON.stringify(rendered.body)).toBe(200);
  expect(rendered.body).toMatchObject({ status: "completed", template_version: 2 });

  const revoked = await pictor(["keys", "revoke", fresh.key_id, "--account", account, "--json"]);
  expect(revoked.code, revoked.stderr).toBe(0);
  expect(JSON.parse(revoked.stdout)).toEqual({
    account_id: account,
    key_id: fresh.key_id,
    revoked: true,
    active_keys: 1,
  });
  expect((await api(server, "GET", "/v1/account", { key: fresh.api_key })).status).toBe(401);
  const again = await pictor(["keys", "revoke", fresh.key_id, "--account", account]);
  expect(again.code).toBe(2);
  expect(again.stderr).toContain(`has no active key '${fresh.key_id}'`);

  server.child.kill("SIGTERM");
  await exited(server.child);
});

it("a database that cannot be reached: each command names it and the reason, exits 1 and writes nothing locally", async () => {
  const port = await closedPort();
  const cwd = mkdtempSync(join(dir, "unreachable-"));
  const env = { DATABASE_URL: `postgres://pictor:secret@127.0.0.1:${port}/pictor` };
  const pictor = pictorIn({ cwd, env });
  const shared = join(cwd, "shared");
  for (const args of [
    ["accounts", "create", "--name", "n", "--json", "--no-starters"],
    ["accounts", "create", "--name", "n", "--data", shared],
    ["accounts", "list"],
    ["credits", "grant", "acct_x", "5"],
    ["credits", "show", "acct_x"],
    ["keys", "create", "--account", "acct_x"],
    ["keys", "revoke", "key_x", "--account", "acct_x"],
    ["templates", "push", OG_CARD, "--account", "acct_x", "--data", shared],
  ]) {
    const run = await pictor(args);
    expect(run.code, args.join(" ")).toBe(1);
    expect(run.stderr).toBe(
      `pictor: cannot reach PostgreSQL 127.0.0.1:${port}/pictor: connect ECONNREFUSED 127.0.0.1:${port}. Check DATABASE_URL (the one pictor serve uses) and that the database accepts connections from this machine.\n`,
    );
    expect(run.stdout).toBe("");
  }
  // Images without S3 need the shared directory named: refused before anything is opened.
  const images = await pictor(["accounts", "create", "--name", "n"]);
  expect(images.code).toBe(2);
  expect(images.stderr).toContain(
    "pictor: accounts create writes the starter templates' images; with DATABASE_URL and no S3_BUCKET they go to the data directory every Pictor process shares. Name it with --data or PICTOR_DATA_DIR",
  );
  expect(images.stderr).toContain("or pass --no-starters.");
  expect(readdirSync(cwd)).toEqual([]);
});

it("a database of an older build is refused by the admin commands (naming pictor migrate) and left as it is; one of a newer build too", async () => {
  const d = await deployment();
  const pictor = pictorIn(d);
  const schema = d.databaseUrl === null ? await sqliteSchema(d) : postgresSchema(d.databaseUrl);
  try {
    await schema.olderBuild();
    const behind = await pictor(["credits", "grant", "acct_x", "5"]);
    expect(behind.code).toBe(1);
    expect(behind.stderr).toMatch(
      new RegExp(
        `^pictor: ${literal(d.where)} is at schema version 3 and this build of Pictor needs \\d+\\. Admin commands do not upgrade a database: run \`pictor serve\` of this build once, or \`pictor migrate\`, then try again\\.\\n$`,
      ),
    );
    expect(await schema.version()).toBe(3);

    await schema.newerBuild();
    for (const args of [
      ["accounts", "list"],
      ["accounts", "create", "--name", "y", "--no-starters"],
    ]) {
      const ahead = await pictor(args);
      expect(ahead.code, args.join(" ")).toBe(1);
      expect(ahead.stderr).toMatch(
        new RegExp(
          `^pictor: ${literal(d.where)} is at schema version 999, newer than this build of Pictor knows`,
        ),
      );
    }
  } finally {
    await schema.close();
  }
});

/** Makes a database read as one an older build (schema version 3) or a newer one (999) left. */
interface SchemaHandle {
  olderBuild(): Promise<void>;
  newerBuild(): Promise<void>;
  version(): Promise<number>;
  close(): Promise<void>;
}

async function sqliteSchema(d: Deployment): Promise<SchemaHandle> {
  const made = await pictorIn(d)(["accounts", "create", "--name", "x", "--no-starters"]);
  expect(made.code, made.stderr).toBe(0);
  const pragma = (text: string) => {
    const db = new DatabaseSync(join(d.cwd, "data", "pictor.db"));
    try {
      return Number((db.prepare(text).get() as { user_version?: number } | undefined)?.user_version);
    } finally {
      db.close();
    }
  };
  return {
    olderBuild: async () => void pragma("PRAGMA user_version = 3"),
    newerBuild: async () => void pragma("PRAGMA user_version = 999"),
    version: async () => pragma("PRAGMA user_version"),
    close: async () => {},
  };
}

function postgresSchema(databaseUrl: string): SchemaHandle {
  const pool = createPgPool(databaseUrl, { max: 1 });
  return {
    olderBuild: async () => void (await migrate(pool, 3)),
    newerBuild: async () => {
      await migrate(pool);
      await pool.query("INSERT INTO pictor_migrations (version) VALUES (999)");
    },
    version: async () =>
      Number((await pool.query("SELECT max(version) AS v FROM pictor_migrations")).rows[0]?.v),
    close: () => pool.end(),
  };
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A loopback port nothing listens on: one the system handed out and took back. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
