import type { components, paths } from "./generated/openapi.ts";

// Names for the request and response bodies of the generated OpenAPI types (generated/openapi.ts).

type JsonBody<T> = T extends { content: { "application/json": infer B } } ? B : never;
type Ok<Op, Status extends number> = Op extends { responses: Record<Status, infer R> } ? JsonBody<R> : never;

export type ApiPaths = paths;
export type ErrorBody = components["schemas"]["ErrorBody"];
/** Every error code the API documents. */
export type ApiErrorCode = ErrorBody["error"]["code"];

export type RenderRequest = JsonBody<paths["/v1/renders"]["post"]["requestBody"]>;
export type RenderJob = Ok<paths["/v1/renders/{id}"]["get"], 200>;
export type Modification = RenderRequest["modifications"][number];
/**
 * A batch row is a render request without `wait`, and optionally the row's own idempotency key: for
 * 24 h the same key with the same row is answered with the render first accepted under it
 * (`replayed: true`, nothing charged), whatever batch it comes in; with another row that row is
 * refused (`idempotency_key_reused`). Header keys (`idempotencyKey`) and row keys never meet.
 */
export type BatchRow = components["schemas"]["BatchRow"];
export type BatchRequest = JsonBody<paths["/v1/renders/batch"]["post"]["requestBody"]>;
/**
 * A row of a batch's answer: the render job with its index (`replayed: true` when the row's
 * `idempotency_key` named a render accepted earlier: that render, not charged again), or the index and
 * the error that refused it (not charged).
 */
export type BatchRowResult = components["schemas"]["BatchRowResult"];
/**
 * Why a row was refused: the error a single render would get (without `request_id`: a row is not a
 * request), or `not_accepted` in GET /v1/batches/:id for a row cut off mid-charge (not charged).
 */
export type BatchRowError = components["schemas"]["BatchRowError"]["error"];
/** A template document of the current version, as templates are stored and returned. */
export type TemplateDocument = components["schemas"]["TemplateDocument"];
export type BatchResponse = Ok<paths["/v1/renders/batch"]["post"], 202>;
export type Batch = Ok<paths["/v1/batches/{id}"]["get"], 200>;
/** What a render of the request would cost and report (POST /v1/renders/preflight); nothing charged. */
export type PreflightReport = Ok<paths["/v1/renders/preflight"]["post"], 200>;
/** Each row's preflight and the valid rows' cost together (POST /v1/renders/batch/preflight). */
export type BatchPreflightReport = Ok<paths["/v1/renders/batch/preflight"]["post"], 200>;
export type TemplateListQuery = NonNullable<paths["/v1/templates"]["get"]["parameters"]["query"]>;
export type TemplatePage = Ok<paths["/v1/templates"]["get"], 200>;
export type TemplateSummary = TemplatePage["data"][number];
export type TemplateSchema = Ok<paths["/v1/templates/{id}/schema"]["get"], 200>;
export type Template = Ok<paths["/v1/templates/{id}"]["get"], 200>;
export type AssetQuery = JsonBody<paths["/v1/assets/query"]["post"]["requestBody"]>;
export type AssetPage = Ok<paths["/v1/assets/query"]["post"], 200>;
export type Asset = Ok<paths["/v1/assets"]["post"], 201>;
export type WebhookSecret = Ok<paths["/v1/webhook-secret"]["get"], 200>;
export type RotatedWebhookSecret = Ok<paths["/v1/webhook-secret/rotate"]["post"], 200>;
export type Account = Ok<paths["/v1/account"]["get"], 200>;
