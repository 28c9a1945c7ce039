import type { Command } from "commander";
import { DATA_FLAG, openAdminBackend, withBackendHelp } from "./admin-backend.ts";
import { parseCreditAmount } from "./credit-amount.ts";

export function registerCreditsCommand(program: Command): void {
  const credits = withBackendHelp(program.command("credits").description("Manage credits"));
  credits
    .command("grant <account> <n>")
    .description("Add n credits to an account (a ledger grant)")
    .option("--note <text>", "note stored with the grant")
    .option("--json", 'print {"account_id","granted","balance"}')
    .option(...DATA_FLAG)
    .action(async (account: string, n: string, flags: { note?: string; json?: boolean; data?: string }) => {
      const amount = parseCreditAmount(n, "<n>", { allowZero: false });
      const backend = await openAdminBackend(flags, { writesImages: null, existing: true });
      let balance: number;
      try {
        await backend.requireAccount(account);
        await backend.ledger.grant(
          account,
          amount,
          flags.note ?? "granted by operator",
          backend.clock.now().toISOString(),
        );
        balance = await backend.ledger.balance(account);
      } finally {
        await backend.close();
      }
      backend.report("wrote to");
      process.stdout.write(
        flags.json
          ? `${JSON.stringify({ account_id: account, granted: amount, balance })}\n`
          : `Granted ${amount} credits to ${account}; balance ${balance}.\n`,
      );
    });
  credits
    .command("show <account>")
    .description("Print an account's credit balance")
    .option("--json", 'print {"account_id","balance"}')
    .option(...DATA_FLAG)
    .action(async (account: string, flags: { json?: boolean; data?: string }) => {
      const backend = await openAdminBackend(flags, { writesImages: null, existing: true });
      let balance: number;
      try {
        await backend.requireAccount(account);
        balance = await backend.ledger.balance(account);
      } finally {
        await backend.close();
      }
      backend.report("read from");
      process.stdout.write(
        flags.json
          ? `${JSON.stringify({ account_id: account, balance })}\n`
          : `${account}: balance ${balance} credits.\n`,
      );
    });
}
