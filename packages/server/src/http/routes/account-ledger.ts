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

const LedgerQuery = T.Object({
  ...listQueryWithCursor("^[0-9]{1,15}$", "an entry id").properties,
  order: T.Optional(
    T.Union([T.Literal("asc"), T.Literal("desc")], {
      default: "asc",
      description:
        "asc: oldest first (the default); desc: newest first. A cursor pages on in the same order.",
    }),
  ),
});

export function registerAccountLedger(app: App, deps: AppDeps): void {
  app.get(
    "/v1/account/ledger",
    {
      schema: {
        summary: "Credit ledger entries, oldest first (or newest first with order=desc)",
        tags: ["account"],
        querystring: LedgerQuery,
        response: { 200: listOf(Entry, "LedgerPage") },
      },
    },
    async (request) => {
      const { cursor, order } = request.query;
      return pageOf(
        request.query.limit,
        (limit) =>
          deps.ledger.entries(request.accountId, {
            limit,
            after: cursor ? Number(cursor) : null,
            newestFirst: order === "desc",
          }),
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
