import { Type as T } from "@sinclair/typebox";
import { batchState } from "../../domain/batches.ts";
import type { RenderStatus } from "../../ports/render-store.ts";
import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";
import { IdParams } from "../schemas.ts";
import { jobView } from "../views.ts";
import { BatchRowResult } from "./batch-create.ts";

const Counts = T.Object({
  rows: T.Integer(),
  refused: T.Integer({ description: "Rows refused at submission (not charged)" }),
  queued: T.Integer(),
  rendering: T.Integer(),
  completed: T.Integer(),
  failed: T.Integer({ description: "Accepted, then failed while rendering (refunded)" }),
});

export function registerBatchGet(app: App, deps: AppDeps): void {
  app.get(
    "/v1/batches/:id",
    {
      schema: {
        summary: "A batch: counts by status and every row's render or error",
        tags: ["renders"],
        params: IdParams,
        response: {
          200: T.Object({
            id: T.String(),
            webhook_url: T.Union([T.String(), T.Null()]),
            metadata: T.Record(T.String(), T.String()),
            created_at: T.String({ format: "date-time" }),
            state: T.Union([T.Literal("accepting"), T.Literal("accepted"), T.Literal("interrupted")], {
              description:
                "accepting while rows are being taken; interrupted when accepting stopped (the process died): `renders` then holds the rows recorded before it stopped",
            }),
            rows_submitted: T.Integer({
              description:
                "Rows in the request; counts.rows is lower only while accepting or when interrupted",
            }),
            counts: Counts,
            renders: T.Array(BatchRowResult),
          }),
        },
      },
    },
    async (request) => {
      const batch = await deps.batches.get(request.accountId, request.params.id);
      if (!batch) throw notFound(`batch '${request.params.id}'`);
      const counts: Record<RenderStatus | "rows" | "refused", number> = {
        rows: batch.rows.length,
        refused: 0,
        queued: 0,
        rendering: 0,
        completed: 0,
        failed: 0,
      };
      const renders = [];
      for (const row of batch.rows) {
        const render = row.renderId ? await deps.renders.get(request.accountId, row.renderId) : null;
        if (render) {
          counts[render.status] += 1;
          renders.push({ index: row.index, ...(await jobView(deps, request, render)) });
        } else {
          counts.refused += 1;
          renders.push({ index: row.index, error: row.error });
        }
      }
      return {
        id: batch.id,
        webhook_url: batch.webhookUrl,
        metadata: batch.metadata,
        created_at: batch.createdAt,
        state: batchState(batch, deps.clock.now()),
        rows_submitted: batch.rowCount,
        counts,
        renders,
      };
    },
  );
}
