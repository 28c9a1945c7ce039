import type { App, AppDeps } from "../app-types.ts";
import { idCursorQuery, listOf } from "../schemas.ts";
import { KeyView } from "./keys-create.ts";

export function registerKeysList(app: App, deps: AppDeps): void {
  app.get(
    "/v1/keys",
    {
      schema: {
        summary: "List API keys (prefix and last use only), oldest first",
        tags: ["keys"],
        querystring: idCursorQuery("key"),
        response: { 200: listOf(KeyView) },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 50;
      const rows = await deps.accounts.listKeys(request.accountId, {
        limit: limit + 1,
        after: request.query.cursor ?? null,
      });
      const page = rows.slice(0, limit);
      return {
        data: page.map((k) => ({
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          created_at: k.createdAt,
          last_used_at: k.lastUsedAt,
          revoked_at: k.revokedAt,
        })),
        next_cursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
      };
    },
  );
}
