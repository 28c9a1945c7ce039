import type { AccountStore, NewAccount } from "../ports/account-store.ts";
import type { AssetStore } from "../ports/asset-store.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import type { Clock } from "../ports/clock.ts";
import type { StarterCatalog } from "../ports/starter-catalog.ts";
import type { TemplateStore } from "../ports/template-store.ts";
import { fail, type Result } from "./failure.ts";
import { keyPrefix, newApiKeySecret, newId, newWebhookSecret, sha256 } from "./ids.ts";
import { installStarterTemplates } from "./starter-templates.ts";

/** Spec section 1 and 8: a free trial of 30 credits, no card. */
export const TRIAL_CREDITS = 30;

/**
 * The most one grant may add: far more than any account renders, and small enough that balances
 * stay exact integers (a JavaScript number is exact to 2^53) through thousands of such grants.
 */
export const MAX_CREDIT_GRANT = 1_000_000_000_000;

/** A grant the ledger takes: a whole number from 1 to MAX_CREDIT_GRANT. */
export function isCreditGrant(amount: number): boolean {
  return Number.isInteger(amount) && amount >= 1 && amount <= MAX_CREDIT_GRANT;
}

export interface AccountDeps {
  accounts: AccountStore;
  templates: TemplateStore;
  assets: AssetStore;
  blobs: BlobStore;
  starters: StarterCatalog;
  clock: Clock;
}

export interface CreatedAccount {
  accountId: string;
  /** Shown once: only its hash is stored. */
  apiKey: string;
  starterTemplates: number;
}

/**
 * Every path that creates an account (`pictor accounts create`, open sign-up, and through
 * createFirstAccount the first `pictor serve`) comes here, so each gets its trial grant and its own
 * published copies of the starter templates.
 */
export async function createAccount(
  deps: AccountDeps,
  input: { name: string; credits?: number },
): Promise<CreatedAccount> {
  const created = await openAccount(deps, input, async (account) => {
    await deps.accounts.create(account);
    return true;
  });
  if (!created) throw new Error("the account store refused a new account");
  return created;
}

/**
 * The account of a first start (the trial account `pictor serve` prints a key for): created only
 * while the store holds no account, and once even when several servers start together on one
 * database. null when an account exists already.
 */
export async function createFirstAccount(
  deps: AccountDeps,
  input: { name: string; credits?: number },
): Promise<CreatedAccount | null> {
  return openAccount(deps, input, (account) => deps.accounts.createIfNone(account));
}

async function openAccount(
  deps: AccountDeps,
  input: { name: string; credits?: number },
  store: (account: NewAccount) => Promise<boolean>,
): Promise<CreatedAccount | null> {
  // The starters first: a catalog that cannot be read must fail before an account (and its key,
  // shown once) exists without them.
  const starters = await deps.starters.load();
  const now = deps.clock.now().toISOString();
  const accountId = newId("acct");
  const apiKey = newApiKeySecret();
  const stored = await store({
    account: { id: accountId, name: input.name, createdAt: now },
    webhookSecret: newWebhookSecret(),
    key: { id: newId("key"), hash: sha256(apiKey), prefix: keyPrefix(apiKey), name: "default" },
    grant: input.credits ?? TRIAL_CREDITS,
  });
  if (!stored) return null;
  await installStarterTemplates(deps, accountId, starters);
  return { accountId, apiKey, starterTemplates: starters.length };
}

/**
 * Active keys an account may hold. Each key has its own rate-limit bucket, so without a ceiling an
 * account could multiply its rate by minting keys; 100 is far more than deployments and CI jobs use.
 */
export const MAX_ACTIVE_KEYS = 100;

export async function createApiKey(
  deps: Pick<AccountDeps, "accounts" | "clock">,
  accountId: string,
  name: string | null,
): Promise<Result<{ id: string; prefix: string; name: string | null; createdAt: string; secret: string }>> {
  if ((await deps.accounts.activeKeyCount(accountId)) >= MAX_ACTIVE_KEYS) {
    return fail(
      "invalid_request",
      `An account holds at most ${MAX_ACTIVE_KEYS} active API keys; revoke one (DELETE /v1/keys/:id) first.`,
    );
  }
  const secret = newApiKeySecret();
  const record = {
    id: newId("key"),
    hash: sha256(secret),
    prefix: keyPrefix(secret),
    name,
    createdAt: deps.clock.now().toISOString(),
  };
  await deps.accounts.addKey(accountId, record);
  return {
    ok: true,
    value: { id: record.id, prefix: record.prefix, name, createdAt: record.createdAt, secret },
  };
}
