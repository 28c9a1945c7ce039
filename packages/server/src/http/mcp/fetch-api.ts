import { type ApiAnswer, type ApiCall, type PictorApi, parseJsonOrNull } from "./pictor-api.ts";

/** Longest a call may take: a render waits up to 60 s on the server, plus time to answer. */
const CALL_TIMEOUT_MS = 90_000;

/** The API of a Pictor server reached over HTTP(S) with one API key (`pictor mcp --url … --key …`). */
export function fetchPictorApi(options: { baseUrl: string; apiKey: string }): PictorApi {
  const base = options.baseUrl.replace(/\/+$/, "");
  const authorization = `Bearer ${options.apiKey}`;
  return {
    async call(request: ApiCall): Promise<ApiAnswer> {
      const headers: Record<string, string> = { authorization, accept: "application/json" };
      let body: string | FormData | undefined;
      if (request.json !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(request.json);
      } else if (request.form) {
        body = request.form;
      }
      const response = await fetch(base + request.path, {
        method: request.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      return { status: response.status, body: parseJsonOrNull(await response.text()) };
    },

    async download(url, maxBytes) {
      const response = await fetch(url, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
      const declared = Number(response.headers.get("content-length") ?? "0");
      if (response.status !== 200 || declared > maxBytes) {
        await response.body?.cancel();
        return null;
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.byteLength > maxBytes) return null;
      return { contentType: response.headers.get("content-type") ?? "application/octet-stream", bytes };
    },
  };
}
