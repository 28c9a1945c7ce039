import { Type as T } from "@sinclair/typebox";
import { batchState } from "../../domain/batches.ts";
import type { App, AppDeps } from "../app-types.ts";
import { idCursorQuery, listOf } from "../schemas.ts";
import { BatchStateSchema } from "./batch-get.ts";

const BatchSummary = T.Object({
  id: T.String(),
  state: BatchStateSchema,
  rows_submitted: T.Integer(),
  webhook_url: T.Union([T.String(), T.Null()]),
  metadata: T.Record(T.String(), T.String()),
  created_at: T.String({ format: "date-time" }),
});

// A caller whose POST /v1/renders/batch got no answer (the server died mid-accept) never saw the
// batch id: this is where it finds the batch, `interrupted`, with the rows that were charged.
export function registerBatchList(app: App, deps: AppDeps): void {
  app.get(
    "/v1/batches",
    {
      schema: {
        summary: "The account's batches, newest first (GET /v1/batches/:id has the rows)",
        tags: ["renders"],
        querystring: idCursorQuery("bat"),
        response: { 200: listOf(BatchSummary) },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 50;
      const rows = await deps.batches.list(request.accountId, {
        limit: limit + 1,
        after: request.query.cursor ?? null,
      });
      const page = rows.slice(0, limit);
      const now = deps.clock.now();
      return {
        data: page.map((b) => ({
          id: b.id,
          state: batchState(b, now),
          rows_submitted: b.rowCount,
          webhook_url: b.webhookUrl,
          metadata: b.metadata,
          created_at: b.createdAt,
        })),
        next_cursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
      };
    },
  );
}
