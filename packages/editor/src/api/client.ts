import type { Account, ApiPaths, Modification, RenderJob, TemplateSummary } from "@pictor/client/types";

/**
 * Thin client for the Pictor HTTP API, same origin. The key lives in sessionStorage only. The
 * answers' types are @pictor/client's, generated from the OpenAPI document (type-only: nothing of it
 * is bundled).
 */

const KEY_STORAGE = "pictor.apiKey";

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_STORAGE);
}

export function storeKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY_STORAGE);
  else sessionStorage.setItem(KEY_STORAGE, key);
}

export class ApiFailure extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: unknown;
  constructor(status: number, code: string, message: string, body: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

async function failureOf(res: Response): Promise<ApiFailure> {
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  const code = body?.error?.code ?? `http_${res.status}`;
  return new ApiFailure(res.status, code, body?.error?.message ?? res.statusText, body);
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  key?: string | null;
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const key = options.key === undefined ? storedKey() : options.key;
  const headers: Record<string, string> = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (!res.ok) throw await failureOf(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** Prepared-image 429s waited out before giving up (see below). */
const MAX_BUSY_RETRIES = 5;

export async function apiBytes(path: string, body: unknown): Promise<Response> {
  const key = storedKey();
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
    // The server prepares a bounded number of an account's images at once (several open tabs can
    // reach it): a 429 there means "later", after its Retry-After, not a broken image.
    if (res.status === 429 && attempt < MAX_BUSY_RETRIES) {
      const seconds = Number(res.headers.get("retry-after")) || 1;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      continue;
    }
    if (!res.ok) throw await failureOf(res);
    return res;
  }
}

/** The answer of a GET, as the OpenAPI document says (the types @pictor/client generates from it). */
type Answer<P extends keyof ApiPaths> = ApiPaths[P] extends {
  get: { responses: { 200: { content: { "application/json": infer B } } } };
}
  ? B
  : never;

export type { Account, Modification, RenderJob, TemplateSummary };
/** A template with its draft document (`GET /v1/templates/{id}`). */
export type TemplateDetail = Answer<"/v1/templates/{id}">;
/**
 * What saving or publishing answers: the template and its `warnings` (`font_unknown`: a family neither
 * shipped nor among the account's fonts). A template read with GET has none.
 */
export type TemplateWarning = { code: string; family: string; message: string };
export type SavedTemplateDetail = TemplateDetail & { warnings?: TemplateWarning[] };
export type FrameSummary = TemplateSummary["frames"][number];
export type LedgerEntry = Answer<"/v1/account/ledger">["data"][number];
export type ApiKey = Answer<"/v1/keys">["data"][number];

/** A page of a list: its items and the cursor of the next page (null: the last). */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** Every item of a paged list, 200 at a time: `path` may carry other query parameters. */
export async function allPages<T>(path: string): Promise<T[]> {
  const all: T[] = [];
  const join = path.includes("?") ? "&" : "?";
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page: Page<T> = await api(`${path}${join}limit=200${after}`);
    all.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return all;
}
