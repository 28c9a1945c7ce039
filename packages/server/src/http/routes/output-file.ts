import { Type as T } from "@sinclair/typebox";
import type { App, AppDeps } from "../app-types.ts";
import { ApiError } from "../errors.ts";
import { notFound } from "../failure.ts";
import { verifyOutputSignature } from "../output-links.ts";
import { FileResponses, matchFile, sendAsset } from "./asset-file.ts";

export function registerOutputFile(app: App, deps: AppDeps): void {
  app.get(
    "/o/:file",
    {
      // No API key, so not under the per-key API limit: the download limits per client address and
      // per owning account apply instead (download-limits.ts).
      config: { public: true, rateLimit: false },
      schema: {
        summary: "Signed output link (about one hour); tampered or expired gives 403",
        tags: ["files"],
        security: [],
        params: T.Object({ file: T.String({ maxLength: 100 }) }),
        querystring: T.Object({ expires: T.Optional(T.String()), sig: T.Optional(T.String()) }),
        response: FileResponses,
      },
    },
    async (request, reply) => {
      deps.downloadLimits.takeIp(request);
      const match = /^(ast_[A-Za-z0-9]+)\.([a-z0-9]{2,5})$/.exec(request.params.file);
      const assetId = match?.[1] ?? "";
      const valid = verifyOutputSignature(
        deps.signingSecret,
        assetId,
        request.query.expires ?? "",
        request.query.sig ?? "",
        deps.clock.now().getTime(),
      );
      if (!match || !valid) throw new ApiError("forbidden", "This link is invalid or has expired.");
      const asset = await deps.assets.getById(assetId);
      if (!matchFile(request.params.file, asset, match[2] ?? "")) throw notFound("asset");
      deps.downloadLimits.takeKeyOrThrow(`acct:${asset.accountId}`);
      // The link expires; caches must not outlive it: they may keep the bytes for what is left of it.
      const left = Number(request.query.expires) - Math.floor(deps.clock.now().getTime() / 1000);
      return sendAsset(deps, request, reply, asset, `private, max-age=${Math.max(0, left)}`);
    },
  );
}
