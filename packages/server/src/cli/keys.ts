import type { Command } from "commander";
import { createApiKey } from "../domain/accounts.ts";
import { DATA_FLAG, openAdminBackend, withBackendHelp } from "./admin-backend.ts";
import { columns } from "./columns.ts";
import { UsageError } from "./usage-error.ts";

const ACCOUNT_FLAG = [
  "--account <id>",
  "account id (acct_…), as printed by pictor serve, accounts create or accounts list",
] as const;

/**
 * `pictor keys`: API keys for an operator. Keys are stored only as hashes, so a lost key cannot be
 * shown again: `create` issues another (older keys stay valid) and `revoke` ends one (a leaked key).
 */
export function registerKeysCommand(program: Command): void {
  const keys = withBackendHelp(program.command("keys").description("Manage API keys"));
  keys
    .command("create")
    .description("Issue a new API key for an account (printed once)")
    .requiredOption(...ACCOUNT_FLAG)
    .option("--name <name>", "a name for the key", "cli")
    .option("--json", 'print {"account_id","key_id","api_key"}')
    .option(...DATA_FLAG)
    .action(async (flags: { account: string; name: string; json?: boolean; data?: string }) => {
      const backend = await openAdminBackend(flags, { writesImages: null, existing: true });
      let key: { id: string; secret: string };
      try {
        await backend.requireAccount(flags.account);
        const created = await createApiKey(backend, flags.account, flags.name);
        if (!created.ok) throw new UsageError(created.message);
        key = created.value;
      } finally {
        await backend.close();
      }
      backend.report("wrote to");
      process.stdout.write(
        flags.json
          ? `${JSON.stringify({ account_id: flags.account, key_id: key.id, api_key: key.secret })}\n`
          : `account_id: ${flags.account}\nkey_id:     ${key.id}\napi_key:    ${key.secret}\n(shown once; older keys stay valid until revoked)\n`,
      );
    });
  keys
    .command("list")
    .description("List an account's API keys (ids, first characters, names, use, revocation), oldest first")
    .requiredOption(...ACCOUNT_FLAG)
    .option("--json", 'print [{"key_id","prefix","name","created_at","last_used_at","revoked_at"}]')
    .option(...DATA_FLAG)
    .action(async (flags: { account: string; json?: boolean; data?: string }) => {
      const backend = await openAdminBackend(flags, { writesImages: null, existing: true });
      const rows: Record<string, string | null>[] = [];
      try {
        await backend.requireAccount(flags.account);
        let after: string | null = null;
        for (;;) {
          const page = await backend.accounts.listKeys(flags.account, { limit: 100, after });
          for (const k of page) {
            rows.push({
              key_id: k.id,
              prefix: k.prefix,
              name: k.name,
              created_at: k.createdAt,
              last_used_at: k.lastUsedAt,
              revoked_at: k.revokedAt,
            });
          }
          if (page.length < 100) break;
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
      const table = [["KEY", "PREFIX", "CREATED", "LAST USED", "REVOKED", "NAME"]].concat(
        rows.map((r) => [
          String(r.key_id),
          `${r.prefix}…`,
          String(r.created_at),
          r.last_used_at ?? "-",
          r.revoked_at ?? "-",
          r.name ?? "",
        ]),
      );
      process.stdout.write(columns(table));
    });
  keys
    .command("revoke <key>")
    .description("Revoke an API key (key_…): requests with it get 401; renders it started still complete")
    .requiredOption(...ACCOUNT_FLAG)
    .option("--json", 'print {"account_id","key_id","revoked","active_keys"}')
    .option(...DATA_FLAG)
    .action(async (keyId: string, flags: { account: string; json?: boolean; data?: string }) => {
      const backend = await openAdminBackend(flags, { writesImages: null, existing: true });
      let active: number;
      try {
        await backend.requireAccount(flags.account);
        const revoked = await backend.accounts.revokeKey(
          flags.account,
          keyId,
          backend.clock.now().toISOString(),
        );
        if (!revoked) {
          throw new UsageError(
            `Account ${flags.account} has no active key '${keyId}' (unknown, another account's, or revoked already); pictor keys list --account ${flags.account} shows its keys.`,
          );
        }
        active = await backend.accounts.activeKeyCount(flags.account);
      } finally {
        await backend.close();
      }
      backend.report("wrote to");
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify({ account_id: flags.account, key_id: keyId, revoked: true, active_keys: active })}\n`,
        );
        return;
      }
      process.stdout.write(
        `Revoked ${keyId} of ${flags.account}; ${active} active key(s) left.` +
          (active === 0 ? ` pictor keys create --account ${flags.account} issues a new one.` : "") +
          "\n",
      );
    });
}
