import { Type as T } from "@sinclair/typebox";
import { batchState } from "../../domain/batches.ts";
import type { App, AppDeps } from "../app-types.ts";
import { pageOf } from "../paging.ts";
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
        response: { 200: listOf(BatchSummary, "BatchList") },
      },
    },
    async (request) => {
      const now = deps.clock.now();
      return pageOf(
        request.query.limit,
        (limit) => deps.batches.list(request.accountId, { limit, after: request.query.cursor ?? null }),
        (b) => b.id,
        (b) => ({
          id: b.id,
          state: batchState(b, now),
          rows_submitted: b.rowCount,
          webhook_url: b.webhookUrl,
          metadata: b.metadata,
          created_at: b.createdAt,
        }),
      );
    },
  );
}
