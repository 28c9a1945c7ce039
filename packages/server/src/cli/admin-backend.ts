import type { Command } from "commander";
import { type BackendState, type OpenedBackend, openBackend } from "../main/backend.ts";
import { ConfigError, readBackendConfig } from "../main/config.ts";
import { dataPaths } from "../main/data-dir.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import { UsageError } from "./usage-error.ts";

export interface BackendFlags {
  data?: string;
  examples?: string;
}

/** Said under `accounts`, `keys`, `credits` and `templates` --help. */
export const BACKEND_HELP = `
Where: the database pictor serve uses with the same settings. Without DATABASE_URL, the SQLite
file in the data directory (--data, else PICTOR_DATA_DIR, else ./data). With DATABASE_URL,
PostgreSQL, and images (starter templates, pushed images) where serve keeps them: S3 with S3_BUCKET
and the other S3_* settings, else the data directory every process shares (--data or
PICTOR_DATA_DIR, required then). Every command says on stderr which database it used; one that
cannot reach it exits 1 and writes nothing locally. A database from an older build is refused: run
pictor serve once (it upgrades it) or pictor migrate.
`;

export const DATA_FLAG = [
  "--data <dir>",
  "data directory: SQLite and files, or with DATABASE_URL and no S3_BUCKET the shared blobs (PICTOR_DATA_DIR; default ./data)",
] as const;

/** `--help` of a command group: what it acts on. */
export function withBackendHelp(command: Command): Command {
  return command.addHelpText("after", BACKEND_HELP);
}

export interface AdminBackend {
  /** Throws the usage error naming this backend when it holds no such account. */
  requireAccount(accountId: string): Promise<void>;
  /** One line on stderr: `pictor: wrote to PostgreSQL db:5432/pictor`. */
  report(verb: "wrote to" | "read from"): void;
}

/**
 * The backend an admin command acts on, chosen from the same settings as `pictor serve` (main/
 * config.ts readBackendConfig). Its schema must be this build's (an empty database is set up first).
 * `writesImages` says which images the command writes, when it writes any: on PostgreSQL without S3 that needs the
 * shared data directory named explicitly, since a default ./data on another machine than the
 * servers would take the images where no server reads them.
 */
export async function openAdminBackend(
  flags: BackendFlags,
  needs: { writesImages: string; orElse?: string; existing?: boolean },
): Promise<OpenedBackend & AdminBackend>;
export async function openAdminBackend(
  flags: BackendFlags,
  needs: { writesImages: null; existing?: boolean },
): Promise<BackendState & AdminBackend>;
export async function openAdminBackend(
  flags: BackendFlags,
  needs: { writesImages: string | null; orElse?: string; existing?: boolean },
): Promise<(BackendState | OpenedBackend) & AdminBackend> {
  let config: ReturnType<typeof readBackendConfig>;
  try {
    config = readBackendConfig(flags, process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const { backend } = config;
  if (
    needs.writesImages !== null &&
    backend.state === "postgres" &&
    backend.blobs.kind === "files" &&
    !config.dataDirGiven
  ) {
    throw new UsageError(
      `${needs.writesImages}; with DATABASE_URL and no S3_BUCKET they go to the data directory every Pictor process shares. Name it with --data or PICTOR_DATA_DIR, or set the S3_* settings and PICTOR_SIGNING_SECRET pictor serve uses${needs.orElse ? `, ${needs.orElse}` : ""}.`,
    );
  }
  const options = { schema: "current" as const, ...(needs.existing ? { existing: true } : {}) };
  const opened =
    needs.writesImages === null
      ? await openBackend(config, { ...options, files: false })
      : await openBackend(config, options);
  const where =
    opened.kind === "sqlite"
      ? `the data directory ${dataPaths(config.dataDir).root}. Check --data or PICTOR_DATA_DIR (the server's)`
      : `${opened.description}. Check DATABASE_URL (the server's)`;
  return Object.assign(opened, {
    async requireAccount(accountId: string) {
      if (await opened.accounts.get(accountId)) return;
      throw new UsageError(
        `No account '${accountId}' in ${where}, or create one with pictor accounts create.`,
      );
    },
    report(verb: "wrote to" | "read from") {
      process.stderr.write(`pictor: ${verb} ${opened.description}\n`);
    },
  });
}

/**
 * For a command opened without files (`writesImages: null`) that hands the backend to a domain
 * function wanting a blob store it will not use on this path: any use is a bug, said as such.
 */
export function unopenedBlobStore(why: string): BlobStore {
  const refuse = () => Promise.reject(new Error(`no blob store was opened: ${why}`));
  return { put: refuse, get: refuse, open: refuse, delete: refuse };
}
