import Fastify, { type FastifyBaseLogger, type FastifyServerOptions, LogController } from "fastify";
import { createMediaUploadInspector } from "../adapters/media/upload-inspector.ts";
import type { IdempotencyStore } from "../ports/idempotency-store.ts";
import type { Tracing } from "../ports/tracing.ts";
import { type AdminPageOptions, registerAdminPage } from "./admin-page.ts";
import type { App, AppDeps, AppDepsInput, PrepareImageBudget } from "./app-types.ts";
import { createAuthenticator } from "./auth.ts";
import type { AuthFailureLimit } from "./auth-failure-budget.ts";
import { DOCUMENTED_VALUES, documentedComponents } from "./documented-values.ts";
import {
  DEFAULT_DOWNLOAD_LIMIT,
  type DownloadLimit,
  DownloadLimits,
  UNLIMITED_DOWNLOADS,
} from "./download-limits.ts";
import { type OperationsOptions, registerOperations } from "./operations.ts";
import { errorHandlerPlugin } from "./plugins/errors.ts";
import { idempotencyPlugin } from "./plugins/idempotency.ts";
import { innerCallsPlugin } from "./plugins/inner-calls.ts";
import { jsonBodyPlugin } from "./plugins/json-body.ts";
import { openApiPlugin } from "./plugins/openapi.ts";
import { type RateLimitOptions, rateLimitPlugin } from "./plugins/rate-limit.ts";
import { requestIdPlugin } from "./plugins/request-id.ts";
import { type RequestLogOptions, requestLogPlugin } from "./plugins/request-log.ts";
import { requestTracingPlugin } from "./plugins/request-tracing.ts";
import { httpServerOptions } from "./plugins/server-options.ts";
import { shuttingDownPlugin } from "./plugins/shutting-down.ts";
import { registerAccountGet } from "./routes/account-get.ts";
import { registerAccountLedger } from "./routes/account-ledger.ts";
import { registerAccountSignup } from "./routes/account-signup.ts";
import { registerAssetFile } from "./routes/asset-file.ts";
import { registerAssetRoutes } from "./routes/assets-routes.ts";
import { registerBatchCreate } from "./routes/batch-create.ts";
import { registerBatchGet } from "./routes/batch-get.ts";
import { registerBatchList } from "./routes/batch-list.ts";
import { registerEditorPrepareImage } from "./routes/editor-prepare-image.ts";
import { registerImageUrl } from "./routes/image-url.ts";
import { registerKeysCreate } from "./routes/keys-create.ts";
import { registerKeysList } from "./routes/keys-list.ts";
import { registerKeysRevoke } from "./routes/keys-revoke.ts";
import { registerLlmsTxt } from "./routes/llms-txt.ts";
import { registerMcp } from "./routes/mcp.ts";
import { registerOutputFile } from "./routes/output-file.ts";
import { registerRenderCreate } from "./routes/render-create.ts";
import { registerRenderDeliveries } from "./routes/render-deliveries.ts";
import { registerRenderRedeliver } from "./routes/render-deliveries-redeliver.ts";
import { registerRenderGet } from "./routes/render-get.ts";
import { registerRenderPreflight } from "./routes/render-preflight.ts";
import { registerTemplateArchive } from "./routes/template-archive.ts";
import { registerTemplateCreate } from "./routes/template-create.ts";
import { registerTemplateDuplicate } from "./routes/template-duplicate.ts";
import { registerTemplateGet } from "./routes/template-get.ts";
import { registerTemplatePublish } from "./routes/template-publish.ts";
import { registerTemplateSchema } from "./routes/template-schema.ts";
import { registerTemplateUpdate } from "./routes/template-update.ts";
import { registerTemplateVersions } from "./routes/template-versions.ts";
import { registerTemplatesList } from "./routes/templates-list.ts";
import { registerUrlSigningKeys } from "./routes/url-signing-keys.ts";
import { registerWebhookSecret } from "./routes/webhook-secret.ts";
import { registerWebhookSecretRotate } from "./routes/webhook-secret-rotate.ts";
import { registerStaticEditor } from "./static-editor.ts";

export interface BuildAppOptions {
  logger?: FastifyServerOptions["logger"];
  /** A logger made by the process (pino), shared with its other parts; wins over `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** /healthz, /readyz and /metrics; absent: not served. */
  operations?: OperationsOptions;
  /** The operator's page under /admin; absent (no PICTOR_OPERATOR_TOKEN): no such page. */
  adminPage?: AdminPageOptions;
  /** Told of every answered API request (the HTTP metrics). */
  observeRequest?: RequestLogOptions["observe"];
  /** A span per API request (traces on); absent: none. */
  tracing?: Tracing;
  /** Faults meaning a backing store is briefly unreachable (503 instead of 500); see ErrorHandlerOptions. */
  isUnavailable?: (error: unknown) => boolean;
  idempotencyStore?: IdempotencyStore;
  rateLimit?: RateLimitOptions | false;
  /**
   * Failed authentications per IP address (auth.ts): over the budget, 429 instead of a key lookup.
   * Default 20 at once, 1 more per second; false turns it off.
   */
  authFailureLimit?: AuthFailureLimit | false;
  /**
   * Downloads of the file routes (`/a/`, `/o/`, `/i/`) per client address and per credential
   * (download-limits.ts). Default DEFAULT_DOWNLOAD_LIMIT; false turns them off.
   */
  downloadLimit?: DownloadLimit | false;
  /**
   * Which peers' `X-Forwarded-For` (and `-Host`, `-Proto`) to believe: Fastify's `trustProxy` as
   * PICTOR_TRUST_PROXY gives it (addresses or CIDR ranges, `loopback`, or a number of hops). Default
   * false: the client address is the TCP peer's and no forwarded header is read.
   */
  trustProxy?: string | number | false;
  /** The editor's prepared images' limits (routes/editor-prepare-image.ts); default DEFAULT_PREPARE_BUDGET. */
  prepareImageBudget?: PrepareImageBudget;
}

/** `pictor serve`'s defaults too (PICTOR_AUTH_FAILURES_BURST / _PER_SECOND, main/config.ts). */
const DEFAULT_AUTH_FAILURE_LIMIT: AuthFailureLimit = { burst: 20, refillPerSecond: 1 };

/** Registered by the OpenAPI plugin, readable without a key. */
const PUBLIC_PATHS = new Set(["/v1/openapi.json", "/docs"]);

export async function buildApp(input: AppDepsInput, options: BuildAppOptions = {}): Promise<App> {
  // The only inspector there is needs no configuration, so each process's composition root need
  // not name it; tests may pass their own.
  const deps: AppDeps = {
    ...input,
    uploadInspector: input.uploadInspector ?? createMediaUploadInspector(),
    downloadLimits:
      options.downloadLimit === false
        ? UNLIMITED_DOWNLOADS
        : new DownloadLimits(options.downloadLimit ?? DEFAULT_DOWNLOAD_LIMIT),
    ...(options.prepareImageBudget ? { prepareImageBudget: options.prepareImageBudget } : {}),
  };
  const app = Fastify({
    ...httpServerOptions(),
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? false }),
    // One line per request, written by requestLogPlugin, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // A hop count as the function Fastify makes of one (its types leave numbers out).
    trustProxy:
      typeof options.trustProxy === "number"
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(options.trustProxy)
        : (options.trustProxy ?? false),
  }).withTypeProvider() as unknown as App;

  app.decorateRequest("accountId", "");
  app.decorateRequest("apiKeyId", "");
  await app.register(requestIdPlugin);
  await app.register(innerCallsPlugin);
  await app.register(requestLogPlugin, options.observeRequest ? { observe: options.observeRequest } : {});
  await app.register(requestTracingPlugin, options.tracing ? { tracing: options.tracing } : {});
  await app.register(
    errorHandlerPlugin,
    options.isUnavailable ? { isUnavailable: options.isUnavailable } : {},
  );
  await app.register(shuttingDownPlugin);
  await app.register(jsonBodyPlugin);

  // Auth is the first check (auth → body → …): it runs on onRequest, before the
  // body is even parsed, so an unauthenticated caller gets 401 whatever it sent.
  const authenticate = createAuthenticator({
    accounts: deps.accounts,
    clock: deps.clock,
    failureLimit:
      options.authFailureLimit === false ? null : (options.authFailureLimit ?? DEFAULT_AUTH_FAILURE_LIMIT),
  });
  app.addHook("onRequest", async (request) => {
    if (request.routeOptions.config?.public === true || PUBLIC_PATHS.has(request.routeOptions.url ?? ""))
      return;
    if (request.routeOptions.url === undefined) return; // unknown route: the 404 handler answers
    await authenticate(request);
  });
  if (options.rateLimit !== false) await app.register(rateLimitPlugin, options.rateLimit ?? {});
  if (options.idempotencyStore) {
    // The app's clock, so a claim's time and the time of the render it creates compare (resume).
    await app.register(idempotencyPlugin, {
      store: options.idempotencyStore,
      now: () => deps.clock.now().getTime(),
    });
  }
  await app.register(openApiPlugin, { documentedValues: DOCUMENTED_VALUES, documentedComponents });

  for (const register of [
    registerTemplatesList,
    registerTemplateSchema,
    registerTemplateCreate,
    registerTemplateGet,
    registerTemplateUpdate,
    registerTemplatePublish,
    registerTemplateVersions,
    registerTemplateDuplicate,
    registerTemplateArchive,
    registerRenderPreflight,
    registerRenderCreate,
    registerRenderGet,
    registerBatchCreate,
    registerBatchGet,
    registerBatchList,
    registerRenderDeliveries,
    registerRenderRedeliver,
    registerAccountGet,
    registerAccountLedger,
    registerAccountSignup,
    registerKeysCreate,
    registerKeysList,
    registerKeysRevoke,
    registerWebhookSecret,
    registerWebhookSecretRotate,
    registerAssetFile,
    registerAssetRoutes,
    registerOutputFile,
    registerEditorPrepareImage,
    registerUrlSigningKeys,
    registerImageUrl,
  ]) {
    register(app, deps);
  }
  if (options.operations) registerOperations(app, options.operations);
  if (options.adminPage) registerAdminPage(app, options.adminPage);
  registerMcp(app);
  registerLlmsTxt(app, deps);
  registerStaticEditor(app);
  return app;
}
