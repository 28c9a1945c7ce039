import type { App, AppDeps } from "../app-types.ts";
import { pageOf } from "../paging.ts";
import { idCursorQuery, listOf } from "../schemas.ts";
import { KeyView, keyView } from "./keys-create.ts";

export function registerKeysList(app: App, deps: AppDeps): void {
  app.get(
    "/v1/keys",
    {
      schema: {
        summary: "List API keys (prefix and last use only), oldest first",
        tags: ["keys"],
        querystring: idCursorQuery("key"),
        response: { 200: listOf(KeyView, "ApiKeyList") },
      },
    },
    async (request) =>
      pageOf(
        request.query.limit,
        (limit) => deps.accounts.listKeys(request.accountId, { limit, after: request.query.cursor ?? null }),
        (k) => k.id,
        keyView,
      ),
  );
}
