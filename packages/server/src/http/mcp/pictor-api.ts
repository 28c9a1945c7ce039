/**
 * What the MCP tools need of a Pictor server: its HTTP API, as one caller sees it. Two
 * implementations: over the network (fetch-api.ts, `pictor mcp` on a desktop) and inside the API
 * process (inject-api.ts, `/v1/mcp`), where each call is dispatched to the API's own routes with
 * the caller's key. So a tool call is validated, scoped, rate-limited, charged and rendered exactly
 * as the same request over HTTP: the tools never reach past the API.
 */
export interface ApiCall {
  method: "GET" | "POST";
  /** Path and query, e.g. `/v1/templates?limit=20`. */
  path: string;
  json?: unknown;
  form?: FormData;
}

export interface ApiAnswer {
  status: number;
  /** The parsed JSON body, or null when there was none. */
  body: unknown;
}

export interface PictorApi {
  call(request: ApiCall): Promise<ApiAnswer>;
  /**
   * The bytes behind a link the API handed out (`asset_url`), at most `maxBytes`; null when the
   * link does not answer 200 or the file is larger.
   */
  download(url: string, maxBytes: number): Promise<{ contentType: string; bytes: Uint8Array } | null>;
}

/** `?a=1&b=2` from the defined entries, or "" when none. */
export function queryString(query: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

export function parseJsonOrNull(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
