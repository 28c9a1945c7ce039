import type { ApiErrorCode } from "./types.ts";

export interface PictorErrorInit {
  status: number;
  code: ApiErrorCode | "connection_error" | "timeout" | "render_failed" | (string & {});
  message: string;
  requestId?: string | null;
  details?: Record<string, unknown>;
}

/**
 * An answer of the API that is an error (`{ "error": { code, message, request_id, … } }`), or a request
 * that got no answer (`PictorConnectionError`, `PictorTimeoutError`). The code's own fields are on the
 * error as camelCase properties (`required`, `balance`, `slot`, `renderId`, `errors`) and, as sent, in
 * `details`.
 */
export class PictorError extends Error {
  override name = "PictorError";
  /** HTTP status; 0 when no answer came. */
  readonly status: number;
  readonly code: PictorErrorInit["code"];
  /** X-Request-Id of the request (quote it when reporting a problem). */
  readonly requestId: string | null;
  /** Every field of the error body besides code, message and request_id. */
  readonly details: Record<string, unknown>;
  /** `insufficient_credits`: the credits the request costs. */
  readonly required?: number;
  /** `insufficient_credits`: the balance. */
  readonly balance?: number;
  /** `unknown_slot`, `image_out_of_folder` and value errors: the slot. */
  readonly slot?: string;
  /** A render that failed (waited for, or polled): its id. Its credits were refunded. */
  readonly renderId?: string;
  /** Validation failures: JSON path and message of each. */
  readonly errors?: { path: string; message: string }[];

  constructor(init: PictorErrorInit, options?: { cause?: unknown }) {
    super(init.message, options);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.details = init.details ?? {};
    const d = this.details;
    if (typeof d.required === "number") this.required = d.required;
    if (typeof d.balance === "number") this.balance = d.balance;
    if (typeof d.slot === "string") this.slot = d.slot;
    if (typeof d.render_id === "string") this.renderId = d.render_id;
    if (Array.isArray(d.errors)) this.errors = d.errors as { path: string; message: string }[];
  }
}

/** No answer: the server could not be reached, or the connection broke, after every retry. */
export class PictorConnectionError extends PictorError {
  override name = "PictorConnectionError";
  constructor(message: string, cause: unknown) {
    super({ status: 0, code: "connection_error", message }, { cause });
  }
}

/** The request (or `waitFor`) took longer than its timeout. */
export class PictorTimeoutError extends PictorError {
  override name = "PictorTimeoutError";
  constructor(message: string) {
    super({ status: 0, code: "timeout", message });
  }
}
