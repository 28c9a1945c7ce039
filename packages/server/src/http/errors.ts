/**
 * The API's error vocabulary: one code per failure a client can act on, and the single table that
 * maps each code to its HTTP status. Route code throws `ApiError`; the
 * error handler plugin (plugins/errors.ts) turns it into
 * `{ "error": { "code", "message", "request_id", ...details } }`.
 */

export type ApiErrorCode =
  | "invalid_json"
  | "invalid_request"
  | "invalid_scale"
  | "unauthorized"
  | "insufficient_credits"
  | "not_found"
  | "idempotency_key_in_use"
  | "payload_too_large"
  | "storage_quota_exceeded"
  | "range_not_satisfiable"
  | "unsupported_media_type"
  | "template_not_published"
  | "unknown_slot"
  | "image_out_of_folder"
  | "value_not_encodable"
  | "render_too_large"
  | "format_unavailable"
  | "invalid_webhook_url"
  | "idempotency_key_reused"
  | "image_fetch_failed"
  | "image_invalid"
  | "font_invalid"
  | "rate_limited"
  | "internal_error"
  | "unavailable"
  | "forbidden";

export const STATUS_BY_CODE: Record<ApiErrorCode, number> = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_scale: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  // Never used for "exists but belongs to another account": that is not_found (no existence oracle).
  forbidden: 403,
  not_found: 404,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  // An upload or import that would take the account's stored files over its quota (nothing stored).
  storage_quota_exceeded: 413,
  unsupported_media_type: 415,
  // A file route's Range outside the file (with `Content-Range: bytes */<size>`).
  range_not_satisfiable: 416,
  template_not_published: 422,
  unknown_slot: 422,
  image_out_of_folder: 422,
  // A QR code or barcode slot got a value its symbology cannot hold (too long, letters for EAN-13).
  value_not_encodable: 422,
  // A render whose estimated peak memory is over the per-render budget, or that cannot be drawn at all.
  render_too_large: 422,
  format_unavailable: 422,
  invalid_webhook_url: 422,
  idempotency_key_reused: 422,
  image_fetch_failed: 422,
  image_invalid: 422,
  font_invalid: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
};

export const API_ERROR_CODES = Object.keys(STATUS_BY_CODE) as ApiErrorCode[];

/** One entry of the `errors` detail of a validation failure; `path` like `modifications[2].color`. */
export interface FieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly statusCode: number;
  /** Flat fields merged into the error body (e.g. `slot`, `required`/`balance`, `errors`). */
  readonly details: Record<string, unknown>;
  /** Extra response headers (e.g. `Retry-After` for 429/503, `WWW-Authenticate` for 401). */
  readonly headers: Record<string, string>;

  constructor(
    code: ApiErrorCode,
    message: string,
    details?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.statusCode = STATUS_BY_CODE[code];
    this.details = details ?? {};
    this.headers = headers ?? {};
  }
}

/** The body shape every error response has. `details` keys never override the three fixed fields. */
export function errorBody(
  code: ApiErrorCode,
  message: string,
  requestId: string,
  details?: Record<string, unknown>,
): { error: Record<string, unknown> } {
  return { error: { ...details, code, message, request_id: requestId } };
}
