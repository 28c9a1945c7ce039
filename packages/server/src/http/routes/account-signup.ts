import { Type as T } from "@sinclair/typebox";
import { createAccount } from "../../domain/accounts.ts";
import type { App, AppDeps } from "../app-types.ts";
import { ApiError } from "../errors.ts";

/**
 * Open sign-up (used by the editor): a new account with the trial credits and starter templates;
 * its API key is in this response only. Operators can turn it off (`PICTOR_OPEN_SIGNUP=false`).
 */
export function registerAccountSignup(app: App, deps: AppDeps): void {
  app.post(
    "/v1/accounts",
    {
      config: { public: true, rateLimit: { max: 5, timeWindow: 60_000 } },
      schema: {
        summary:
          "Sign up: create an account (30 trial credits, starter templates); the API key is shown once",
        tags: ["account"],
        security: [],
        body: T.Object({ name: T.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
        response: { 201: T.Object({ account_id: T.String(), api_key: T.String() }) },
      },
    },
    async (request, reply) => {
      if (deps.openSignup === false) throw new ApiError("forbidden", "Sign-up is disabled on this server.");
      const created = await createAccount(deps, { name: request.body.name });
      reply.header("Cache-Control", "no-store");
      return reply.code(201).send({ account_id: created.accountId, api_key: created.apiKey });
    },
  );
}
