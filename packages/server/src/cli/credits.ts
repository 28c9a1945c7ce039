import type { Command } from "commander";
import { dataDirFrom } from "../main/config.ts";
import { openDataDir } from "../main/data-dir.ts";
import { parseCreditAmount } from "./credit-amount.ts";
import { noAccount } from "./usage-error.ts";

export function registerCreditsCommand(program: Command): void {
  const credits = program.command("credits").description("Manage credits");
  credits
    .command("grant <account> <n>")
    .description("Add n credits to an account (a ledger grant)")
    .option("--note <text>", "note stored with the grant")
    .option("--json", 'print {"account_id","granted","balance"}')
    .option("--data <dir>", "data directory (PICTOR_DATA_DIR; default ./data)")
    .action(async (account: string, n: string, flags: { note?: string; json?: boolean; data?: string }) => {
      const amount = parseCreditAmount(n, "<n>", { allowZero: false });
      const data = openDataDir(dataDirFrom(flags.data, process.env), { existing: true });
      try {
        if (!(await data.accounts.get(account))) throw noAccount(account, data.paths.root);
        await data.ledger.grant(
          account,
          amount,
          flags.note ?? "granted by operator",
          data.clock.now().toISOString(),
        );
        const balance = await data.ledger.balance(account);
        process.stdout.write(
          flags.json
            ? `${JSON.stringify({ account_id: account, granted: amount, balance })}\n`
            : `Granted ${amount} credits to ${account}; balance ${balance}.\n`,
        );
      } finally {
        data.close();
      }
    });
}
