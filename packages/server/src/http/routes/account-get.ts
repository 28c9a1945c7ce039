import { Type as T } from "@sinclair/typebox";
import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";

export const AccountView = T.Object(
  {
    id: T.String(),
    name: T.String(),
    credits_balance: T.Integer(),
    created_at: T.String(),
  },
  { title: "Account" },
);

export function registerAccountGet(app: App, deps: AppDeps): void {
  app.get(
    "/v1/account",
    {
      schema: {
        summary: "The caller's account and credit balance",
        tags: ["account"],
        response: { 200: AccountView },
      },
    },
    async (request) => {
      const account = await deps.accounts.get(request.accountId);
      if (!account) throw notFound("account");
      return {
        id: account.id,
        name: account.name,
        credits_balance: await deps.ledger.balance(account.id),
        created_at: account.createdAt,
      };
    },
  );
}
