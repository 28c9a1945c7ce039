import { Type as T } from "@sinclair/typebox";
import type { App, AppDeps } from "../app-types.ts";
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
      const limit = request.query.limit ?? 50;
      const cursor = request.query.cursor;
      const rows = await deps.ledger.entries(request.accountId, {
        limit: limit + 1,
        after: cursor ? Number(cursor) : null,
      });
      const page = rows.slice(0, limit);
      return {
        data: page.map((e) => ({
          id: String(e.id),
          kind: e.kind,
          amount: e.amount,
          render_id: e.renderId,
          note: e.note,
          created_at: e.createdAt,
        })),
        next_cursor: rows.length > limit ? String(page.at(-1)?.id) : null,
      };
    },
  );
}
