import { Type as T } from "@sinclair/typebox";
import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";
import { IdParams } from "../schemas.ts";

export function registerKeysRevoke(app: App, deps: AppDeps): void {
  app.delete(
    "/v1/keys/:id",
    {
      schema: {
        summary: "Revoke an API key; later requests with it get 401, renders already accepted still complete",
        tags: ["keys"],
        params: IdParams,
        response: { 200: T.Object({ id: T.String(), revoked: T.Literal(true) }) },
      },
    },
    async (request) => {
      const ok = await deps.accounts.revokeKey(
        request.accountId,
        request.params.id,
        deps.clock.now().toISOString(),
      );
      if (!ok) throw notFound(`active key '${request.params.id}'`);
      return { id: request.params.id, revoked: true as const };
    },
  );
}
