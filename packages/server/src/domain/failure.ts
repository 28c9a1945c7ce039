/**
 * Expected failures are values with a stable code (the API's error codes), never exceptions; the HTTP
 * layer maps codes to statuses with one table.
 */
export interface Failure {
  ok: false;
  code:
    | "not_found"
    | "invalid_request"
    | "invalid_scale"
    | "template_not_published"
    | "unknown_slot"
    | "image_out_of_folder"
    | "value_not_encodable"
    | "render_too_large"
    | "format_unavailable"
    | "image_fetch_failed"
    | "image_invalid"
    | "internal_error"
    | "invalid_webhook_url"
    | "insufficient_credits"
    | "idempotency_key_reused"
    | "idempotency_key_in_use"
    | "unavailable";
  message: string;
  details?: Record<string, unknown>;
  /** Seconds after which a retry may succeed (`unavailable`: the queue was full). */
  retryAfter?: number;
}

export type Result<T> = { ok: true; value: T } | Failure;

export function fail(code: Failure["code"], message: string, details?: Record<string, unknown>): Failure {
  return details ? { ok: false, code, message, details } : { ok: false, code, message };
}
