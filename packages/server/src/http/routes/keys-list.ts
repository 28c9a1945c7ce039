import type { App, AppDeps } from "../app-types.ts";
import { listOf } from "../schemas.ts";
import { KeyView } from "./keys-create.ts";

export function registerKeysList(app: App, deps: AppDeps): void {
  app.get(
    "/v1/keys",
    {
      schema: {
        summary: "List API keys (prefix and last use only)",
        tags: ["keys"],
        response: { 200: listOf(KeyView) },
      },
    },
    async (request) => ({
      data: (await deps.accounts.listKeys(request.accountId)).map((k) => ({
        id: k.id,
        name: k.name,
        prefix: k.prefix,
        created_at: k.createdAt,
        last_used_at: k.lastUsedAt,
        revoked_at: k.revokedAt,
      })),
      next_cursor: null,
    }),
  );
}
