import { PictorConnectionError, PictorError, PictorTimeoutError } from "./errors.ts";
import type {
  Account,
  Asset,
  AssetPage,
  AssetQuery,
  Batch,
  BatchPreflightReport,
  BatchRequest,
  BatchResponse,
  PreflightReport,
  RenderJob,
  RenderRequest,
  RotatedWebhookSecret,
  Template,
  TemplateListQuery,
  TemplatePage,
  TemplateSchema,
  TemplateSummary,
  WebhookSecret,
} from "./types.ts";

export interface PictorOptions {
  /** A secret API key, `sk_live_…`. Keep it server-side. */
  apiKey: string;
  /** Origin of the Pictor server. Default `http://127.0.0.1:8080` (what `npm start` serves). */
  baseUrl?: string;
  /** Retries after a network error, 429 or 503 (and 409 `idempotency_key_in_use`). Default 4. */
  maxRetries?: number;
  /** First backoff delay; doubled at each retry, with jitter, up to `retryMaxDelayMs`. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Longest backoff delay, and the longest `Retry-After` honoured before giving up. Default 20 s. */
  retryMaxDelayMs?: number;
  /** Per attempt. Default 60 s (a render that waits gets its wait on top). */
  timeoutMs?: number;
  /** A fetch implementation; default `globalThis.fetch` (Node 18+, browsers, edge runtimes). */
  fetch?: typeof fetch;
}

/** Per call: cancel with `signal`, bound one attempt with `timeoutMs`. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** POSTs that create work: an `Idempotency-Key` is generated unless one is given (reuse it to resume). */
export interface CreateOptions extends CallOptions {
  idempotencyKey?: string;
}

export interface CreateRenderOptions extends CreateOptions {
  /**
   * Wait for the image: `true` (up to `waitTimeoutMs`) or a number of seconds. The server holds the
   * request up to 60 s; past that the client polls. Resolves with the completed job; rejects with a
   * PictorError (`renderId` set, credits refunded) if the render failed.
   */
  wait?: boolean | number;
}

export interface WaitOptions {
  /** Total time to wait, ms. Default 120 s; then PictorTimeoutError. */
  timeout?: number;
  signal?: AbortSignal;
}

export interface UploadInput {
  file: Blob | Uint8Array | ArrayBuffer;
  filename: string;
  /** Default taken from the Blob, else application/octet-stream (the server sniffs the bytes). */
  contentType?: string;
  folder?: string;
  name?: string;
  tags?: string[];
  metadata?: Record<string, string>;
}

interface RequestSpec extends CallOptions {
  method: "GET" | "POST" | "DELETE" | "PATCH";
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: () => FormData;
  headers?: Record<string, string>;
  idempotencyKey?: string;
  /** Whether a network error may be retried: reads and requests carrying an Idempotency-Key. */
  retrySafe: boolean;
}

interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

const DEFAULT_WAIT_MS = 120_000;
const SERVER_WAIT_MAX_S = 60;

/**
 * The Pictor API over `fetch`: typed from the server's OpenAPI document, with retries (exponential
 * backoff with jitter, honouring Retry-After) on network errors, 429 and 503, an automatic
 * Idempotency-Key on POSTs that create work so that a retry is never charged twice, typed errors,
 * timeouts and AbortSignal.
 */
export class Pictor {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #maxRetries: number;
  readonly #retryBase: number;
  readonly #retryMax: number;
  readonly #timeoutMs: number;

  constructor(options: PictorOptions) {
    if (typeof options?.apiKey !== "string" || options.apiKey === "") {
      throw new TypeError("new Pictor({ apiKey }): apiKey is required (sk_live_…)");
    }
    this.#apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== "function") throw new TypeError("no fetch: pass options.fetch on this runtime");
    this.#fetch = f.bind(globalThis);
    this.#maxRetries = options.maxRetries ?? 4;
    this.#retryBase = options.retryBaseDelayMs ?? 500;
    this.#retryMax = options.retryMaxDelayMs ?? 20_000;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
  }

  readonly renders = {
    /** POST /v1/renders. Asynchronous (status `queued`) unless `wait`. */
    create: async (body: RenderRequest, options: CreateRenderOptions = {}): Promise<RenderJob> => {
      const waitMs = options.wait === true ? DEFAULT_WAIT_MS : options.wait ? options.wait * 1000 : 0;
      const started = Date.now();
      const serverWait = Math.min(SERVER_WAIT_MAX_S, Math.floor(waitMs / 1000));
      const { body: job } = await this.#request<RenderJob>({
        method: "POST",
        path: "/v1/renders",
        json: serverWait > 0 ? { ...body, wait: serverWait } : body,
        idempotencyKey: options.idempotencyKey ?? (await newIdempotencyKey()),
        retrySafe: true,
        // An explicit timeoutMs bounds the attempt, wait included; the default gets the wait on top.
        timeoutMs: options.timeoutMs ?? this.#timeoutMs + serverWait * 1000,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (waitMs === 0 || job.status === "completed") return job;
      return this.renders.waitFor(job.id, {
        timeout: Math.max(0, waitMs - (Date.now() - started)),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    },
    /** GET /v1/renders/:id. */
    get: async (id: string, options: CallOptions = {}): Promise<RenderJob> =>
      (await this.#get<RenderJob>(`/v1/renders/${encodeURIComponent(id)}`, options)).body,
    /**
     * Polls until the render is completed (resolves with the job) or failed (rejects with a PictorError
     * whose code is the render's error code and `renderId` its id; its credits were refunded).
     */
    waitFor: async (id: string, options: WaitOptions = {}): Promise<RenderJob> => {
      const deadline = Date.now() + (options.timeout ?? DEFAULT_WAIT_MS);
      let interval = 200;
      for (;;) {
        const job = await this.renders.get(id, options.signal ? { signal: options.signal } : {});
        if (job.status === "completed") return job;
        if (job.status === "failed") throw renderFailed(job);
        const left = deadline - Date.now();
        if (left <= 0)
          throw new PictorTimeoutError(`render ${id} was still ${job.status} when the wait ended`);
        await sleep(Math.min(interval, left), options.signal);
        interval = Math.min(2000, interval * 1.5);
      }
    },
    /** POST /v1/renders/batch: up to 1,000 rows, each validated and charged on its own. */
    batch: async (body: BatchRequest, options: CreateOptions = {}): Promise<BatchResponse> =>
      (
        await this.#request<BatchResponse>({
          method: "POST",
          path: "/v1/renders/batch",
          json: body,
          idempotencyKey: options.idempotencyKey ?? (await newIdempotencyKey()),
          retrySafe: true,
          ...pick(options),
        })
      ).body,
    /**
     * POST /v1/renders/preflight: whether the render would be accepted (or its exact error), its cost,
     * and per layer what drawing it reports (text shrunk or truncated, glyph fallbacks, unknown fonts,
     * images enlarged), the slots that used defaults. Free: nothing is charged, stored or returned.
     */
    preflight: async (body: RenderRequest, options: CallOptions = {}): Promise<PreflightReport> =>
      (
        await this.#request<PreflightReport>({
          method: "POST",
          path: "/v1/renders/preflight",
          json: body,
          retrySafe: true,
          ...pick(options),
        })
      ).body,
    /** POST /v1/renders/batch/preflight: the same for each row of a batch (up to 1,000 rows). */
    preflightBatch: async (body: BatchRequest, options: CallOptions = {}): Promise<BatchPreflightReport> =>
      (
        await this.#request<BatchPreflightReport>({
          method: "POST",
          path: "/v1/renders/batch/preflight",
          json: body,
          retrySafe: true,
          ...pick(options),
        })
      ).body,
  };

  readonly batches = {
    /** GET /v1/batches/:id: counts by status and the batch's renders. */
    get: async (id: string, options: CallOptions = {}): Promise<Batch> =>
      (await this.#get<Batch>(`/v1/batches/${encodeURIComponent(id)}`, options)).body,
  };

  readonly templates = {
    /** Every template, page after page: `for await (const t of pictor.templates.list()) …`. */
    list: (query: TemplateListQuery = {}, options: CallOptions = {}): AsyncIterable<TemplateSummary> => {
      const page = (cursor: string | undefined) => this.templates.page({ ...query, cursor }, options);
      return {
        async *[Symbol.asyncIterator]() {
          let cursor: string | undefined = query.cursor;
          do {
            const result = await page(cursor);
            yield* result.data;
            cursor = result.next_cursor ?? undefined;
          } while (cursor);
        },
      };
    },
    /** One page of GET /v1/templates (`data`, `next_cursor`). */
    page: async (query: TemplateListQuery = {}, options: CallOptions = {}): Promise<TemplatePage> =>
      (await this.#get<TemplatePage>("/v1/templates", options, query)).body,
    /** GET /v1/templates/:id (id or key): the template (`published_version`, `frames`) and its draft. */
    get: async (idOrKey: string, options: CallOptions = {}): Promise<Template> =>
      (await this.#get<Template>(`/v1/templates/${encodeURIComponent(idOrKey)}`, options)).body,
    /** GET /v1/templates/:id/schema (id or key): the slots a render may fill. */
    schema: async (idOrKey: string, options: CallOptions = {}): Promise<TemplateSchema> =>
      (await this.#get<TemplateSchema>(`/v1/templates/${encodeURIComponent(idOrKey)}/schema`, options)).body,
  };

  readonly assets = {
    /** POST /v1/assets (multipart): an image or font into the library. */
    upload: async (input: UploadInput, options: CallOptions = {}): Promise<Asset> => {
      const form = () => {
        const data = new FormData();
        for (const [field, value] of [
          ["folder", input.folder],
          ["name", input.name],
          ["tags", input.tags && JSON.stringify(input.tags)],
          ["metadata", input.metadata && JSON.stringify(input.metadata)],
        ] as const) {
          if (value !== undefined) data.append(field, value);
        }
        const blob =
          input.file instanceof Blob
            ? input.file
            : new Blob([input.file as BlobPart], { type: input.contentType ?? "application/octet-stream" });
        data.append("file", blob, input.filename);
        return data;
      };
      return (
        await this.#request<Asset>({
          method: "POST",
          path: "/v1/assets",
          form,
          retrySafe: false,
          ...pick(options),
        })
      ).body;
    },
    /** POST /v1/assets/query: search by tags, metadata, folder. */
    query: async (query: AssetQuery, options: CallOptions = {}): Promise<AssetPage> =>
      (
        await this.#request<AssetPage>({
          method: "POST",
          path: "/v1/assets/query",
          json: query,
          retrySafe: true,
          ...pick(options),
        })
      ).body,
  };

  readonly webhookSecret = {
    /** GET /v1/webhook-secret: the HMAC key of callback signatures (`verifyCallback`). */
    get: async (options: CallOptions = {}): Promise<WebhookSecret> =>
      (await this.#get<WebhookSecret>("/v1/webhook-secret", options)).body,
    /** POST /v1/webhook-secret/rotate: a new secret; the previous one stays valid for a grace period. */
    rotate: async (options: CallOptions = {}): Promise<RotatedWebhookSecret> =>
      (
        await this.#request<RotatedWebhookSecret>({
          method: "POST",
          path: "/v1/webhook-secret/rotate",
          json: {},
          retrySafe: false,
          ...pick(options),
        })
      ).body,
  };

  readonly account = {
    /** GET /v1/account, with `credits_balance`. */
    get: async (options: CallOptions = {}): Promise<Account> =>
      (await this.#get<Account>("/v1/account", options)).body,
  };

  #get<T>(path: string, options: CallOptions, query?: RequestSpec["query"]): Promise<Answer<T>> {
    return this.#request<T>({
      method: "GET",
      path,
      retrySafe: true,
      ...(query ? { query } : {}),
      ...pick(options),
    });
  }

  async #request<T>(spec: RequestSpec): Promise<Answer<T>> {
    const url = new URL(this.baseUrl + spec.path);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: "application/json",
      ...spec.headers,
    };
    if (spec.json !== undefined) headers["content-type"] = "application/json";
    if (spec.idempotencyKey) headers["idempotency-key"] = spec.idempotencyKey;
    const payload = spec.json !== undefined ? JSON.stringify(spec.json) : undefined;
    const timeoutMs = spec.timeoutMs ?? this.#timeoutMs;

    for (let attempt = 0; ; attempt++) {
      const retriesLeft = attempt < this.#maxRetries;
      const { signal, timedOut, release } = attemptSignal(spec.signal, timeoutMs);
      let response: Response;
      try {
        response = await this.#fetch(url, {
          method: spec.method,
          headers,
          body: payload ?? spec.form?.(),
          signal,
        });
      } catch (error) {
        release();
        if (spec.signal?.aborted) throw spec.signal.reason;
        if (timedOut()) {
          throw new PictorTimeoutError(`${spec.method} ${spec.path}: no answer within ${timeoutMs} ms`);
        }
        if (spec.retrySafe && retriesLeft) {
          await sleep(this.#backoff(attempt), spec.signal);
          continue;
        }
        throw new PictorConnectionError(
          `${spec.method} ${spec.path}: ${(error as Error).message}${attempt > 0 ? ` (after ${attempt} retries)` : ""}`,
          error,
        );
      }
      try {
        const text = await response.text();
        const body = text === "" ? null : parseJson(text);
        if (response.ok) return { status: response.status, body: body as T, headers: response.headers };
        const error = toPictorError(response, body, text);
        if (retriesLeft && isRetryable(response.status, error.code)) {
          const delay = retryAfterMs(response.headers.get("retry-after")) ?? this.#backoff(attempt);
          if (delay <= this.#retryMax) {
            await sleep(Math.max(delay, this.#backoff(0) / 2), spec.signal);
            continue;
          }
        }
        throw error;
      } catch (error) {
        if (spec.signal?.aborted) throw spec.signal.reason;
        if (timedOut())
          throw new PictorTimeoutError(`${spec.method} ${spec.path}: timed out reading the answer`);
        throw error;
      } finally {
        release();
      }
    }
  }

  /** Exponential with jitter: a random delay in [d/2, d], d = base × 2^attempt, capped. */
  #backoff(attempt: number): number {
    const d = Math.min(this.#retryMax, this.#retryBase * 2 ** attempt);
    return d / 2 + Math.random() * (d / 2);
  }
}

function pick(options: CallOptions): CallOptions {
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  };
}

function isRetryable(status: number, code: string): boolean {
  return status === 429 || status === 503 || (status === 409 && code === "idempotency_key_in_use");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function toPictorError(response: Response, body: unknown, text: string): PictorError {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  const requestId = response.headers.get("x-request-id");
  if (!error || typeof error.code !== "string") {
    return new PictorError({
      status: response.status,
      code: response.status >= 500 ? "internal_error" : "invalid_request",
      message: `HTTP ${response.status}: ${text.slice(0, 200) || response.statusText}`,
      requestId,
    });
  }
  const { code, message, request_id, ...details } = error;
  return new PictorError({
    status: response.status,
    code,
    message: typeof message === "string" ? message : code,
    requestId: typeof request_id === "string" ? request_id : requestId,
    details,
  });
}

function renderFailed(job: RenderJob): PictorError {
  const code = job.error?.code ?? "render_failed";
  return new PictorError({
    status: code === "internal_error" ? 500 : 422,
    code,
    message: job.error?.message ?? `render ${job.id} failed`,
    details: { render_id: job.id, credits_refunded: job.credits_refunded },
  });
}

/** Seconds or an HTTP date, in ms; null when absent or unreadable. */
function retryAfterMs(header: string | null): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** The caller's signal and this attempt's timeout as one signal (AbortSignal.any is not in Node 18). */
function attemptSignal(
  outer: AbortSignal | undefined,
  timeoutMs: number,
): { signal: AbortSignal; timedOut: () => boolean; release: () => void } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    release: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A UUID v4: Web Crypto where there is one (Node 19+, browsers, edge), node:crypto on Node 18. */
export async function newIdempotencyKey(): Promise<string> {
  const webCrypto = (globalThis as { crypto?: Crypto }).crypto;
  if (webCrypto?.randomUUID) return webCrypto.randomUUID();
  const { randomUUID } = await import("node:crypto");
  return randomUUID();
}
