import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";
import { IdParams, Job } from "../schemas.ts";
import { jobView } from "../views.ts";

export function registerRenderGet(app: App, deps: AppDeps): void {
  app.get(
    "/v1/renders/:id",
    { schema: { summary: "Poll a render job", tags: ["renders"], params: IdParams, response: { 200: Job } } },
    async (request) => {
      const render = await deps.renders.get(request.accountId, request.params.id);
      if (!render) throw notFound(`render '${request.params.id}'`);
      return jobView(deps, request, render);
    },
  );
}
