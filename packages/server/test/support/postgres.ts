import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

export interface ThrowawayPostgres {
  /** Superuser URL of the cluster's `postgres` database. */
  url: string;
  /** A fresh empty database on this cluster; each test takes its own so none sees another's rows. */
  newDatabase(): Promise<string>;
  /** The postmaster's pid (backends are its children): for CPU accounting. Changes on restart. */
  pid(): number;
  /**
   * Stops the cluster as a crash would (`-m immediate`: every connection drops, nothing is flushed
   * politely) and starts it again on the same port and data: the "database restarted" fault.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Debian puts each major version's server binaries in /usr/lib/postgresql/<major>/bin (not on PATH). */
function findPostgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((d) => /^\d+$/.test(d))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const bin = join(root, major, "bin");
    if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"))) return bin;
  }
  return null;
}

/**
 * Reports a skipped suite, or throws under CI: there a missing service is a broken setup, not a reason
 * to pass quietly.
 */
export function skipOrFail(suite: string, what: string, install: string): null {
  const message = `${suite}: ${what} not found; install it to run this suite (${install}, or run scripts/ci-services.sh)`;
  if (process.env.CI === "true") throw new Error(`CI=true but ${message}`);
  console.warn(`[skipped] ${message}`);
  return null;
}

/**
 * A PostgreSQL cluster from Debian's packages in a temporary directory, on a free loopback port, with
 * its unix socket inside that directory so it never collides with a system cluster. initdb refuses to
 * run as root, so as root the cluster belongs to the `postgres` user. fsync and synchronous commit are
 * off: a throwaway cluster needs no durability (initdb + start: 1.8 s on the idle 2-core box, 3.5 s at load average 9).
 * Returns null (suite skipped) when the binaries are missing, unless CI=true.
 */
export async function startPostgres(
  suite: string,
  /** More `-c name=value` server settings (bench:scale loads pg_stat_statements to count statements). */
  settings: string[] = [],
): Promise<ThrowawayPostgres | null> {
  const bin = findPostgresBin();
  if (!bin)
    return skipOrFail(
      suite,
      "PostgreSQL (/usr/lib/postgresql/<version>/bin/initdb)",
      "apt-get install postgresql",
    );

  const dir = await mkdtemp(join(tmpdir(), "pictor-pg-"));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? lookupUser("postgres") : null;
  if (asRoot && !owner)
    throw new Error("running as root needs a `postgres` user to own the cluster (initdb refuses root)");
  if (owner) await chown(dir, owner.uid, owner.gid);
  const as = (cmd: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", cmd, ...args]) : run(cmd, args);

  const data = join(dir, "data");
  const port = await freeLoopbackPort();
  await as(join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
    "--locale=C",
  ]);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
    ...settings.map((s) => `-c ${s}`),
  ].join(" ");
  await as(join(bin, "pg_ctl"), ["start", "-w", "-D", data, "-l", join(dir, "log"), "-o", options]);

  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    const args = ["stop", "-m", "immediate", "-D", data];
    spawnSync(
      asRoot ? "runuser" : join(bin, "pg_ctl"),
      asRoot ? ["-u", "postgres", "--", join(bin, "pg_ctl"), ...args] : args,
    );
  };
  // A test run that dies without afterAll must not leave a postmaster behind.
  process.once("exit", stopNow);

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    pid: () => Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]),
    async restart() {
      await as(join(bin, "pg_ctl"), ["stop", "-m", "immediate", "-w", "-D", data]);
      await as(join(bin, "pg_ctl"), ["start", "-w", "-D", data, "-l", join(dir, "log"), "-o", options]);
    },
    async newDatabase() {
      const name = `t_${randomBytes(6).toString("hex")}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      process.removeListener("exit", stopNow);
      stopNow();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function lookupUser(name: string): { uid: number; gid: number } | null {
  const out = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (out.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(out.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A port the kernel just handed out on 127.0.0.1; postgres binds it a moment later (tiny race, no retry needed on a test box). */
async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no loopback port");
  return address.port;
}
