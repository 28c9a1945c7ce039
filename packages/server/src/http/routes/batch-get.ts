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

export const BatchStateSchema = T.Union(
  [T.Literal("accepting"), T.Literal("accepted"), T.Literal("interrupted")],
  {
    description:
      "accepting while rows are being taken; interrupted when accepting stopped (the process died): `renders` then holds the rows recorded before it stopped",
  },
);

const notAccepted = {
  code: "not_accepted",
  message: "The batch was interrupted while this row was being charged; it was not charged.",
};

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
            state: BatchStateSchema,
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
      const state = batchState(batch, deps.clock.now());
      // Every row's render and output asset in two reads, not two per row (a 10,000-row batch).
      const rowIds = batch.rows.flatMap((row) => (row.renderId ? [row.renderId] : []));
      const found = new Map((await deps.renders.getMany(request.accountId, rowIds)).map((r) => [r.id, r]));
      const assetIds = [...found.values()].flatMap((r) => (r.assetId ? [r.assetId] : []));
      const assets = new Map((await deps.assets.getMany(request.accountId, assetIds)).map((a) => [a.id, a]));
      const renders = [];
      for (const row of batch.rows) {
        const render = row.renderId ? found.get(row.renderId) : undefined;
        if (render) {
          counts[render.status] += 1;
          const asset = render.assetId ? (assets.get(render.assetId) ?? null) : null;
          renders.push({ index: row.index, ...(await jobView(deps, request, render, asset)) });
          continue;
        }
        // Reserved under a render id that was never stored: the row being charged right now, or,
        // once the batch stopped, one cut off before its charge committed (so not charged).
        if (row.error === null && state === "accepting") continue;
        counts.refused += 1;
        renders.push({ index: row.index, error: row.error ?? notAccepted });
      }
      counts.rows = renders.length;
      return {
        id: batch.id,
        webhook_url: batch.webhookUrl,
        metadata: batch.metadata,
        created_at: batch.createdAt,
        state,
        rows_submitted: batch.rowCount,
        counts,
        renders,
      };
    },
  );
}
