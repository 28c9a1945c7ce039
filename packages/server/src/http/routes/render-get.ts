import type { App, AppDeps } from "../app-types.ts";
import { IdParams, Job } from "../schemas.ts";
import { jobView } from "../views.ts";
import { findRenderOr404 } from "./find-or-404.ts";

export function registerRenderGet(app: App, deps: AppDeps): void {
  app.get(
    "/v1/renders/:id",
    { schema: { summary: "Poll a render job", tags: ["renders"], params: IdParams, response: { 200: Job } } },
    async (request) => {
      const render = await findRenderOr404(deps, request.accountId, request.params.id);
      return jobView(deps, request, render);
    },
  );
}
