import { Command, CommanderError } from "commander";
import { StarterCatalogError } from "../adapters/files/starter-catalog.ts";
import { BackendError } from "../main/backend.ts";
import { DataDirError } from "../main/data-dir.ts";
import { pictorVersion } from "../main/version.ts";
import { registerAccountsCommand } from "./accounts.ts";
import { registerBatchCommand } from "./batch.ts";
import { registerCreditsCommand } from "./credits.ts";
import { registerKeysCommand } from "./keys.ts";
import { registerMcpCommand } from "./mcp.ts";
import { registerMigrateCommand } from "./migrate.ts";
import { registerRenderCommand } from "./render.ts";
import { registerServeCommand } from "./serve.ts";
import { registerTemplatesCommand } from "./templates.ts";
import { registerUrlCommand } from "./url.ts";
import { EXIT_FAILED, EXIT_USAGE, UsageError } from "./usage-error.ts";

/**
 * `pictor` command dispatcher. Each command lives in its own file under src/cli/ and registers
 * itself here; this file only wires them up and maps failures to exit codes
 * (0 ok, 1 the command failed, 2 usage error).
 */
const program = new Command("pictor")
  .description("Pictor: template image rendering service and tools")
  .version(pictorVersion(), "-V, --version", "print the version of Pictor")
  .showHelpAfterError("(add --help for usage)")
  .exitOverride();

registerRenderCommand(program);
registerServeCommand(program);
registerBatchCommand(program);
registerAccountsCommand(program);
registerCreditsCommand(program);
registerKeysCommand(program);
registerTemplatesCommand(program);
registerUrlCommand(program);
registerMigrateCommand(program);
registerMcpCommand(program);

/** What to change when the state a command needs cannot be used: said under the error's line. */
const SETUP_HINTS = new Map<unknown, string>([
  [DataDirError, "Choose another directory with --data <dir> or PICTOR_DATA_DIR (default ./data)."],
  [
    StarterCatalogError,
    "Fix it, or name another directory of template documents with --examples <dir> (pictor serve, pictor accounts create).",
  ],
]);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version exit 0; every other commander error is a usage error (already printed).
    process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
  } else if (error instanceof UsageError) {
    process.stderr.write(`pictor: ${error.message}\n`);
    process.exitCode = EXIT_USAGE;
  } else if (error instanceof BackendError) {
    // The database cannot be used as it is (unreachable, another build's schema): the command failed.
    process.stderr.write(`pictor: ${error.message}\n`);
    process.exitCode = EXIT_FAILED;
  } else if (error instanceof DataDirError || error instanceof StarterCatalogError) {
    process.stderr.write(`pictor: ${error.message}\n${SETUP_HINTS.get(error.constructor)}\n`);
    process.exitCode = EXIT_USAGE;
  } else {
    throw error;
  }
}
