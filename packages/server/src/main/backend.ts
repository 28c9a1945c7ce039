import { POSTGRES_BUILD_SCHEMA_VERSION, postgresSchemaVersion } from "../adapters/postgres/schema-version.ts";
import { openPostgresState } from "../adapters/postgres/state.ts";
import { SQLITE_BUILD_SCHEMA_VERSION, sqliteSchemaVersion } from "../adapters/sqlite/schema-version.ts";
import type { AccountStore } from "../ports/account-store.ts";
import type { AssetStore } from "../ports/asset-store.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import { type Clock, systemClock } from "../ports/clock.ts";
import type { Ledger } from "../ports/ledger.ts";
import type { StarterCatalog } from "../ports/starter-catalog.ts";
import type { TemplateStore } from "../ports/template-store.ts";
import { BackendError } from "./backend-error.ts";
import type { ServeConfig } from "./config.ts";
import { type DataDir, dataPaths, openDataDir } from "./data-dir.ts";
import { openScaledState } from "./scaled-state.ts";

/** What openBackend reads: the part of `pictor serve`'s configuration that says where state lives. */
export type BackendConfig = Pick<
  ServeConfig,
  "backend" | "dataDir" | "examplesDir" | "databasePoolMax" | "role"
>;

/** The state both backends keep in their database. */
export interface BackendState {
  kind: "sqlite" | "postgres";
  /** Where, for people: `SQLite /srv/pictor/data/pictor.db`, `PostgreSQL db.internal:5432/pictor`. */
  description: string;
  /** Accounts and their API keys. */
  accounts: AccountStore;
  ledger: Ledger;
  templates: TemplateStore;
  assets: AssetStore;
  assetLibrary: DataDir["assetLibrary"];
  clock: Clock;
  close(): Promise<void>;
}

/** What lives beside the database: image bytes, the starter templates, the link-signing key. */
export interface BackendFiles {
  blobs: BlobStore;
  starters: StarterCatalog;
  signingSecret: Uint8Array;
}

export type OpenedBackend = BackendState & BackendFiles;

export interface BackendOptions {
  /**
   * A database older than this build: `upgrade` migrates it (serve); `current` refuses it, and only
   * an empty one is migrated (the admin commands, which must not change the schema under servers of
   * the older build). A database newer than this build is refused either way.
   */
  schema?: "upgrade" | "current";
  /** SQLite: refuse a data directory without pictor.db rather than start one (commands that look up). */
  existing?: boolean;
}

export { BackendError } from "./backend-error.ts";

/**
 * Opens the backend `pictor serve` would use with this configuration: SQLite and files in the data
 * directory (openDataDir), or PostgreSQL with blobs on S3 or in a shared directory (openScaledState).
 * `files: false` leaves out blobs, starters and the signing key: a command that writes no image then
 * needs no object-store settings, and on PostgreSQL touches no local directory.
 */
export async function openBackend(
  config: BackendConfig,
  options: BackendOptions & { files: false },
): Promise<BackendState>;
export async function openBackend(
  config: BackendConfig,
  options?: BackendOptions & { files?: true },
): Promise<OpenedBackend>;
export async function openBackend(
  config: BackendConfig,
  options: BackendOptions & { files?: boolean } = {},
): Promise<BackendState | OpenedBackend> {
  const { backend } = config;
  const schema = options.schema ?? "upgrade";
  if (backend.state === "sqlite") {
    const description = `SQLite ${dataPaths(config.dataDir).database}`;
    // null: not a database; openDataDir says so in its own words.
    const found = sqliteSchemaVersion(dataPaths(config.dataDir).database);
    if (found !== null) checkSchema(description, found, SQLITE_BUILD_SCHEMA_VERSION, schema);
    const data = openDataDir(config.dataDir, {
      ...(config.examplesDir ? { examplesDir: config.examplesDir } : {}),
      ...(options.existing ? { existing: true } : {}),
    });
    return {
      kind: "sqlite",
      description,
      ...statePorts(data),
      blobs: data.blobs,
      starters: data.starters,
      signingSecret: data.signingSecret,
      close: async () => data.close(),
    };
  }
  const description = `PostgreSQL ${postgresLocation(backend.databaseUrl)}`;
  const applicationName = `pictor-${config.role}`;
  let found: number;
  try {
    found = await postgresSchemaVersion(backend.databaseUrl, applicationName);
  } catch (error) {
    throw new BackendError(
      `cannot reach ${description}: ${reason(error)}. Check DATABASE_URL (the one pictor serve uses) and that the database accepts connections from this machine.`,
      { cause: error },
    );
  }
  checkSchema(description, found, POSTGRES_BUILD_SCHEMA_VERSION, schema);
  if (options.files === false) {
    const state = await openPostgresState(backend.databaseUrl, {
      max: config.databasePoolMax,
      applicationName,
    });
    return { kind: "postgres", description, ...statePorts(state), clock: systemClock, close: state.close };
  }
  const state = await openScaledState(config, backend);
  return {
    kind: "postgres",
    description,
    ...statePorts(state),
    blobs: state.blobs,
    starters: state.starters,
    signingSecret: state.signingSecret,
    close: state.close,
  };
}

/**
 * `pictor serve`'s rule before it opens (and migrates) the database: one newer than this build is
 * refused, one that cannot be reached is a BackendError naming it. Returns the backend's description.
 */
export async function checkServeSchema(config: BackendConfig): Promise<string> {
  const { backend } = config;
  if (backend.state === "sqlite") {
    const description = `SQLite ${dataPaths(config.dataDir).database}`;
    const found = sqliteSchemaVersion(dataPaths(config.dataDir).database);
    if (found !== null) checkSchema(description, found, SQLITE_BUILD_SCHEMA_VERSION, "upgrade");
    return description;
  }
  const description = `PostgreSQL ${postgresLocation(backend.databaseUrl)}`;
  let found: number;
  try {
    found = await postgresSchemaVersion(backend.databaseUrl, `pictor-${config.role}`);
  } catch (error) {
    throw new BackendError(`cannot reach ${description}: ${reason(error)}. Check DATABASE_URL.`, {
      cause: error,
    });
  }
  checkSchema(description, found, POSTGRES_BUILD_SCHEMA_VERSION, "upgrade");
  return description;
}

function statePorts(
  state: Pick<BackendState, "accounts" | "ledger" | "templates" | "assets" | "assetLibrary"> & {
    clock?: Clock;
  },
): Omit<BackendState, "kind" | "description" | "close"> {
  return {
    accounts: state.accounts,
    ledger: state.ledger,
    templates: state.templates,
    assets: state.assets,
    assetLibrary: state.assetLibrary,
    clock: state.clock ?? systemClock,
  };
}

function checkSchema(description: string, found: number, built: number, schema: "upgrade" | "current") {
  if (found > built) {
    throw new BackendError(
      `${description} is at schema version ${found}, newer than this build of Pictor knows (${built}): a newer Pictor has upgraded it. Run that version (or a later one) instead.`,
    );
  }
  // 0 is a database Pictor has not used yet: every command may set it up.
  if (schema === "current" && found > 0 && found < built) {
    throw new BackendError(
      `${description} is at schema version ${found} and this build of Pictor needs ${built}. Admin commands do not upgrade a database: run \`pictor serve\` of this build once, or \`pictor migrate\`, then try again.`,
    );
  }
}

/** host:port/database of a PostgreSQL URL, without the credentials. */
export function postgresLocation(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    // postgres:///db?host=/run/postgresql: a unix socket directory instead of a host name.
    const host = url.hostname || url.searchParams.get("host") || "localhost";
    const database = decodeURIComponent(url.pathname.replace(/^\//, "")) || "(default database)";
    return `${host}:${url.port || "5432"}/${database}`;
  } catch {
    return "(DATABASE_URL)";
  }
}

/** The driver's reason, also when it tried several addresses (`localhost`: ::1, then 127.0.0.1). */
function reason(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return [...new Set(error.errors.map(reason))].join("; ");
  }
  const { message, code } = error as { message?: string; code?: string };
  return message || code || String(error);
}
