import type { Command } from "commander";
import { createApiKey } from "../domain/accounts.ts";
import { dataDirFrom } from "../main/config.ts";
import { openDataDir } from "../main/data-dir.ts";
import { noAccount, UsageError } from "./usage-error.ts";

/**
 * `pictor keys create --account ID`: a new API key for an operator who lost the one printed at first
 * start (keys are stored only as hashes, so a lost key cannot be shown again). Older keys stay valid;
 * revoke them in the editor's Account screen or with DELETE /v1/keys/:id.
 */
export function registerKeysCommand(program: Command): void {
  const keys = program.command("keys").description("Manage API keys");
  keys
    .command("create")
    .description("Issue a new API key for an account (printed once)")
    .requiredOption("--account <id>", "account id (acct_…), as printed by pictor serve or accounts create")
    .option("--name <name>", "a name for the key", "cli")
    .option("--json", 'print {"account_id","key_id","api_key"}')
    .option("--data <dir>", "data directory (PICTOR_DATA_DIR; default ./data)")
    .action(async (flags: { account: string; name: string; json?: boolean; data?: string }) => {
      const data = openDataDir(dataDirFrom(flags.data, process.env), { existing: true });
      try {
        if (!(await data.accounts.get(flags.account))) throw noAccount(flags.account, data.paths.root);
        const created = await createApiKey(data, flags.account, flags.name);
        if (!created.ok) throw new UsageError(created.message);
        const key = created.value;
        process.stdout.write(
          flags.json
            ? `${JSON.stringify({ account_id: flags.account, key_id: key.id, api_key: key.secret })}\n`
            : `account_id: ${flags.account}\nkey_id:     ${key.id}\napi_key:    ${key.secret}\n(shown once; older keys stay valid until revoked)\n`,
        );
      } finally {
        data.close();
      }
    });
}
