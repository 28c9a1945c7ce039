import { Type as T } from "@sinclair/typebox";
import type { App, AppDeps } from "../app-types.ts";
import { pageOf } from "../paging.ts";
import { listOf, listQueryWithCursor } from "../schemas.ts";

const Entry = T.Object({
  id: T.String(),
  kind: T.Union([T.Literal("grant"), T.Literal("charge"), T.Literal("refund")]),
  amount: T.Integer({ description: "Signed: charges are negative" }),
  render_id: T.Union([T.String(), T.Null()]),
  note: T.Union([T.String(), T.Null()]),
  created_at: T.String(),
});

export function registerAccountLedger(app: App, deps: AppDeps): void {
  app.get(
    "/v1/account/ledger",
    {
      schema: {
        summary: "Credit ledger entries, oldest first",
        tags: ["account"],
        querystring: listQueryWithCursor("^[0-9]{1,15}$", "an entry id"),
        response: { 200: listOf(Entry) },
      },
    },
    async (request) => {
      const { cursor } = request.query;
      return pageOf(
        request.query.limit,
        (limit) => deps.ledger.entries(request.accountId, { limit, after: cursor ? Number(cursor) : null }),
        (e) => String(e.id),
        (e) => ({
          id: String(e.id),
          kind: e.kind,
          amount: e.amount,
          render_id: e.renderId,
          note: e.note,
          created_at: e.createdAt,
        }),
      );
    },
  );
}
