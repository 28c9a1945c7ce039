import type { Command } from "commander";
import { migrateSchema, schemaStatus, schemaTarget } from "../main/migrate.ts";
import { DATA_FLAG } from "./admin-backend.ts";
import { EXIT_FAILED } from "./usage-error.ts";

export function registerMigrateCommand(program: Command): void {
  program
    .command("migrate")
    .description(
      "Bring the database (DATABASE_URL, else the data directory's SQLite file) to this build's schema, as pictor serve does at start; --check only compares",
    )
    .option(
      "--check",
      "change nothing: exit 0 when the database is at this build's schema, 1 when it is behind or ahead",
    )
    .option(...DATA_FLAG)
    .action(async (flags: { check?: boolean; data?: string }) => {
      const target = schemaTarget(flags, process.env);
      if (flags.check) {
        const { description, found, built } = await schemaStatus(target);
        if (found === built) {
          process.stdout.write(`${description} is at schema version ${found}, this build's.\n`);
          return;
        }
        process.stdout.write(
          found < built
            ? `${description} is at schema version ${found}, behind this build's ${built}: run pictor migrate.\n`
            : `${description} is at schema version ${found}, ahead of this build's ${built}: a newer Pictor upgraded it; run that version.\n`,
        );
        process.exitCode = EXIT_FAILED;
        return;
      }
      const { description, found, applied } = await migrateSchema(target);
      process.stdout.write(
        applied.length === 0
          ? `${description} is at schema version ${found}, this build's: nothing to do.\n`
          : `${description} migrated to schema version ${found} (applied ${applied.join(", ")}).\n`,
      );
    });
}
