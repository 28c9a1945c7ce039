import type { Command } from "commander";
import { createAccount } from "../domain/accounts.ts";
import { dataDirFrom } from "../main/config.ts";
import { openDataDir } from "../main/data-dir.ts";
import { parseCreditAmount } from "./credit-amount.ts";
import { UsageError } from "./usage-error.ts";

export function registerAccountsCommand(program: Command): void {
  const accounts = program.command("accounts").description("Manage accounts");
  accounts
    .command("create")
    .description("Create an account with an API key, starting credits and the starter templates")
    .requiredOption("--name <name>", "account name")
    .option("--credits <n>", "starting credits instead of the 30-credit trial")
    .option("--json", 'print {"account_id","api_key"}')
    .option("--data <dir>", "data directory (PICTOR_DATA_DIR; default ./data)")
    .action(async (flags: { name: string; credits?: string; json?: boolean; data?: string }) => {
      const credits =
        flags.credits === undefined
          ? undefined
          : parseCreditAmount(flags.credits, "--credits", { allowZero: true });
      if (flags.name.trim() === "") throw new UsageError("--name must not be empty.");
      const data = openDataDir(dataDirFrom(flags.data, process.env));
      try {
        const created = await createAccount(data, {
          name: flags.name,
          ...(credits === undefined ? {} : { credits }),
        });
        if (flags.json) {
          process.stdout.write(
            `${JSON.stringify({ account_id: created.accountId, api_key: created.apiKey })}\n`,
          );
        } else {
          process.stdout.write(`account_id: ${created.accountId}\napi_key:    ${created.apiKey}\n`);
        }
      } finally {
        data.close();
      }
    });
}
