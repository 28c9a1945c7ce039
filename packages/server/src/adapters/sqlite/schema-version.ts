import { existsSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { MIGRATIONS, schemaVersion } from "./migrations.ts";

/** The version this build migrates a database to: its last numbered migration. */
export const SQLITE_BUILD_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * The schema version of the database in `file` (the last numbered migration applied), read without
 * migrating it: 0 for no file or a new, empty one. null when the file cannot be read as a database;
 * opening it reports why, in the words the data directory's errors use.
 */
export function sqliteSchemaVersion(file: string): number | null {
  if (!existsSync(file)) return 0;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file);
    return schemaVersion(db);
  } catch {
    return null;
  } finally {
    db?.close();
  }
}
