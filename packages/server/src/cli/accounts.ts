import type { Command } from "commander";
import { createAccount } from "../domain/accounts.ts";
import { DATA_FLAG, openAdminBackend, unopenedBlobStore, withBackendHelp } from "./admin-backend.ts";
import { columns } from "./columns.ts";
import { parseCreditAmount } from "./credit-amount.ts";
import { UsageError } from "./usage-error.ts";

/** Accounts listed per query: any number of accounts in memory-sized steps. */
const PAGE = 500;

export function registerAccountsCommand(program: Command): void {
  const accounts = withBackendHelp(program.command("accounts").description("Manage accounts"));
  accounts
    .command("create")
    .description("Create an account with an API key, starting credits and the starter templates")
    .requiredOption("--name <name>", "account name")
    .option("--credits <n>", "starting credits instead of the 30-credit trial")
    .option("--no-starters", "create the account without the starter templates (writes no images)")
    .option("--examples <dir>", "starter templates (PICTOR_EXAMPLES_DIR; default examples/templates)")
    .option("--json", 'print {"account_id","api_key"}')
    .option(...DATA_FLAG)
    .action(
      async (flags: {
        name: string;
        credits?: string;
        starters: boolean;
        examples?: string;
        json?: boolean;
        data?: string;
      }) => {
        const credits =
          flags.credits === undefined
            ? undefined
            : parseCreditAmount(flags.credits, "--credits", { allowZero: true });
        if (flags.name.trim() === "") throw new UsageError("--name must not be empty.");
        const input = { name: flags.name, ...(credits === undefined ? {} : { credits }) };
        let created: Awaited<ReturnType<typeof createAccount>>;
        let report: (verb: "wrote to") => void;
        if (flags.starters) {
          const backend = await openAdminBackend(flags, {
            writesImages: "accounts create writes the starter templates' images",
            orElse: "or pass --no-starters",
          });
          try {
            created = await createAccount(backend, input);
          } finally {
            await backend.close();
          }
          report = backend.report;
        } else {
          const backend = await openAdminBackend(flags, { writesImages: null });
          try {
            created = await createAccount(
              {
                ...backend,
                starters: { load: async () => [] },
                blobs: unopenedBlobStore("--no-starters writes no image"),
              },
              input,
            );
          } finally {
            await backend.close();
          }
          report = backend.report;
        }
        report("wrote to");
        if (flags.json) {
          process.stdout.write(
            `${JSON.stringify({ account_id: created.accountId, api_key: created.apiKey })}\n`,
          );
        } else {
          process.stdout.write(`account_id: ${created.accountId}\napi_key:    ${created.apiKey}\n`);
        }
      },
    );
  accounts
    .command("list")
    .description("List every account, oldest first, with its credit balance")
    .option("--json", 'print [{"account_id","name","created_at","balance"}]')
    .option(...DATA_FLAG)
    .action(async (flags: { json?: boolean; data?: string }) => {
      const backend = await openAdminBackend(flags, { writesImages: null, existing: true });
      const rows: { account_id: string; name: string; created_at: string; balance: number }[] = [];
      try {
        let after: string | null = null;
        for (;;) {
          const page = await backend.accounts.list({ limit: PAGE, after });
          for (const account of page) {
            rows.push({
              account_id: account.id,
              name: account.name,
              created_at: account.createdAt,
              balance: await backend.ledger.balance(account.id),
            });
          }
          if (page.length < PAGE) break;
          after = page[page.length - 1]?.id ?? null;
        }
      } finally {
        await backend.close();
      }
      backend.report("read from");
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(rows)}\n`);
        return;
      }
      if (rows.length === 0) {
        process.stdout.write("No accounts yet: pictor accounts create --name NAME makes one.\n");
        return;
      }
      const table = [["ACCOUNT", "CREATED", "BALANCE", "NAME"]].concat(
        rows.map((r) => [r.account_id, r.created_at, String(r.balance), r.name]),
      );
      process.stdout.write(columns(table));
    });
}
