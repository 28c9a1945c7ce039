import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { createFileBlobStore } from "../adapters/files/blob-store.ts";
import { makeDirectories } from "../adapters/files/make-directories.ts";
import { createDirectoryStarterCatalog } from "../adapters/files/starter-catalog.ts";
import { createSqliteAccountStore } from "../adapters/sqlite/account-store.ts";
import { createSqliteAssetLibrary } from "../adapters/sqlite/asset-library.ts";
import { createSqliteAssetStore } from "../adapters/sqlite/asset-store.ts";
import { openDatabase } from "../adapters/sqlite/database.ts";
import { SqliteIdempotencyStore } from "../adapters/sqlite/idempotency-store.ts";
import { createSqliteLedger } from "../adapters/sqlite/ledger.ts";
import { createSqliteRenderStore } from "../adapters/sqlite/render-store.ts";
import { createSqliteTemplateStore } from "../adapters/sqlite/template-store.ts";
import { systemClock } from "../ports/clock.ts";

/** examples/templates of this checkout: the starter templates every new account receives. */
export const DEFAULT_EXAMPLES_DIR = new URL("../../../../examples/templates/", import.meta.url).pathname;

export function dataPaths(dataDir: string) {
  const root = resolve(dataDir);
  return {
    root,
    database: join(root, "pictor.db"),
    blobs: join(root, "blobs"),
    secret: join(root, "signing.key"),
  };
}

/** The data directory cannot be used (not a directory, not writable, not a Pictor database…). */
export class DataDirError extends Error {
  override name = "DataDirError";
  constructor(dir: string, cause: unknown) {
    super(`cannot use the data directory ${dir}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/**
 * Opens the embedded default's state in a data directory: the SQLite file, the blob directory and
 * the link-signing secret. Used by `pictor serve` and by every CLI command, so they act on the same
 * instance (also while the server runs: SQLite WAL + busy_timeout). Throws DataDirError when the
 * directory cannot be made, written or read as Pictor's.
 */
export function openDataDir(
  dataDir: string,
  options: {
    examplesDir?: string;
    /** Refuse a directory without Pictor's database rather than start one (commands that look things up). */
    existing?: boolean;
  } = {},
) {
  const paths = dataPaths(dataDir);
  let db: DatabaseSync | undefined;
  let secret: Uint8Array;
  if (options.existing && !existsSync(paths.database)) {
    throw new DataDirError(paths.root, new Error("it holds no Pictor data (no pictor.db)"));
  }
  try {
    makeDirectories(paths.blobs);
    db = openDatabase(paths.database);
    secret = signingSecret(paths.secret);
  } catch (error) {
    db?.close();
    throw new DataDirError(paths.root, error);
  }
  return {
    paths,
    db,
    accounts: createSqliteAccountStore(db),
    templates: createSqliteTemplateStore(db),
    renders: createSqliteRenderStore(db),
    assets: createSqliteAssetStore(db),
    assetLibrary: createSqliteAssetLibrary(db),
    ledger: createSqliteLedger(db),
    blobs: createFileBlobStore(paths.blobs),
    starters: createDirectoryStarterCatalog(options.examplesDir ?? DEFAULT_EXAMPLES_DIR),
    idempotency: new SqliteIdempotencyStore(db),
    clock: systemClock,
    signingSecret: secret,
    close: () => db.close(),
  };
}

export type DataDir = ReturnType<typeof openDataDir>;

/** 32 random bytes created on first use; mode 0600 since whoever holds it can mint output links. */
export function signingSecret(file: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  try {
    writeFileSync(file, randomBytes(32), { mode: 0o600, flag: "wx" });
  } catch (e) {
    // Another process (CLI and server starting together) created it first: use theirs.
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  return new Uint8Array(readFileSync(file));
}
