/**
 * The operationId of each documented operation, by `METHOD path` as the OpenAPI document writes it:
 * names for the functions generated clients and agent tools make of them. An operation missing here
 * still gets one, made from its method and path (`getHealthz`), so every operation has an id.
 */
const OPERATION_IDS: Record<string, string> = {
  "GET /v1/templates": "listTemplates",
  "POST /v1/templates": "createTemplate",
  "GET /v1/templates/{id}/schema": "getTemplateSchema",
  "GET /v1/templates/{id}": "getTemplate",
  "PUT /v1/templates/{id}": "replaceTemplateDraft",
  "PATCH /v1/templates/{id}": "updateTemplateDraft",
  "POST /v1/templates/{id}/publish": "publishTemplate",
  "GET /v1/templates/{id}/versions": "listTemplateVersions",
  "POST /v1/templates/{id}/duplicate": "duplicateTemplate",
  "POST /v1/templates/{id}/archive": "archiveTemplate",
  "POST /v1/renders/preflight": "preflightRender",
  "POST /v1/renders/batch/preflight": "preflightBatch",
  "POST /v1/renders": "createRender",
  "GET /v1/renders/{id}": "getRender",
  "POST /v1/renders/batch": "createBatch",
  "GET /v1/batches/{id}": "getBatch",
  "GET /v1/batches": "listBatches",
  "GET /v1/renders/{id}/deliveries": "listRenderDeliveries",
  "POST /v1/renders/{id}/redeliver": "redeliverRenderCallback",
  "GET /v1/account": "getAccount",
  "GET /v1/account/ledger": "listLedgerEntries",
  "POST /v1/accounts": "signUp",
  "POST /v1/keys": "createApiKey",
  "GET /v1/keys": "listApiKeys",
  "DELETE /v1/keys/{id}": "revokeApiKey",
  "GET /v1/webhook-secret": "getWebhookSecret",
  "POST /v1/webhook-secret/rotate": "rotateWebhookSecret",
  "GET /a/{file}": "getAssetFile",
  "GET /v1/assets": "listAssets",
  "POST /v1/assets": "uploadAsset",
  "POST /v1/assets/import": "importAsset",
  "GET /v1/assets/fonts": "listFonts",
  "POST /v1/assets/query": "queryAssets",
  "GET /v1/assets/{id}": "getAsset",
  "PATCH /v1/assets/{id}": "updateAsset",
  "DELETE /v1/assets/{id}": "deleteAsset",
  "GET /o/{file}": "getOutputFile",
  "POST /v1/editor/prepare-image": "prepareEditorImage",
  "POST /v1/url-signing-keys": "createUrlSigningKey",
  "GET /v1/url-signing-keys": "listUrlSigningKeys",
  "POST /v1/url-signing-keys/{id}/rotate": "rotateUrlSigningKey",
  "POST /v1/url-signing-keys/{id}/sign": "signImageUrl",
  "DELETE /v1/url-signing-keys/{id}": "deleteUrlSigningKey",
  "GET /i/{key}/{file}": "getOnDemandImage",
  "POST /v1/mcp": "mcp",
  "GET /v1/openapi.json": "getOpenApiDocument",
  "GET /docs": "getApiReference",
};

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

/** `get` + `/v1/healthz` → `getV1Healthz`: the id of an operation the table does not name. */
function derivedId(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w[0]?.toUpperCase() + w.slice(1));
  return method + words.join("");
}

/** Sets every operation's operationId in a generated OpenAPI document (in place) and returns it. */
export function withOperationIds<T extends { paths?: Record<string, Record<string, unknown>> }>(
  document: T,
): T {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as { operationId?: string } | undefined;
      if (!operation || operation.operationId) continue;
      operation.operationId = OPERATION_IDS[`${method.toUpperCase()} ${path}`] ?? derivedId(method, path);
    }
  }
  return document;
}
