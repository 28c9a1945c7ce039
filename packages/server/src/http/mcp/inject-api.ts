import type { FastifyRequest } from "fastify";
import type { App } from "../app-types.ts";
import { openInnerCalls } from "../plugins/inner-calls.ts";
import { type ApiAnswer, type ApiCall, type PictorApi, parseJsonOrNull } from "./pictor-api.ts";

/**
 * Headers copied from the MCP request to each call: the key, and what decides the caller's address
 * and the links' origin (Host, and the X-Forwarded-* the server trusts only from a trusted proxy).
 */
const CARRIED_HEADERS = [
  "authorization",
  "host",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "user-agent",
] as const;

/**
 * The API as the caller of `request` sees it, called inside this process: each call runs through
 * the app's own routes and hooks (auth, validation, the render service), from the caller's address,
 * so nothing is charged or scoped differently from the same call over HTTP. The calls are part of
 * `request` (plugins/inner-calls.ts): it spent the one rate-limit token and is the one request
 * logged and counted. `close` when `request` is answered.
 */
export function injectPictorApi(app: App, request: FastifyRequest): PictorApi & { close(): void } {
  const inner = openInnerCalls(request);
  const carried: Record<string, string> = {};
  for (const name of CARRIED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === "string") carried[name] = value;
  }
  const remoteAddress = request.raw.socket.remoteAddress ?? "127.0.0.1";

  const inject = async (
    method: "GET" | "POST",
    path: string,
    headers: Record<string, string>,
    payload?: Buffer | string,
  ) =>
    app.inject({
      method,
      url: path,
      headers: { ...carried, ...headers, ...inner.headers },
      remoteAddress,
      ...(payload !== undefined ? { payload } : {}),
    });

  return {
    close: inner.close,
    async call(call: ApiCall): Promise<ApiAnswer> {
      const headers: Record<string, string> = { accept: "application/json" };
      let payload: Buffer | string | undefined;
      if (call.json !== undefined) {
        headers["content-type"] = "application/json";
        payload = JSON.stringify(call.json);
      } else if (call.form) {
        // The multipart encoding a fetch would send, boundary included.
        const encoded = new Request("http://form.invalid/", { method: "POST", body: call.form });
        headers["content-type"] = encoded.headers.get("content-type") ?? "multipart/form-data";
        payload = Buffer.from(await encoded.arrayBuffer());
      }
      const response = await inject(call.method, call.path, headers, payload);
      return { status: response.statusCode, body: parseJsonOrNull(response.body) };
    },

    async download(url, maxBytes) {
      // Links of this API (`/a/…`) are served by this app whatever origin they name.
      const target = new URL(url);
      const response = await inject("GET", target.pathname + target.search, {});
      if (response.statusCode !== 200 || response.rawPayload.byteLength > maxBytes) return null;
      const contentType = response.headers["content-type"];
      return {
        contentType: typeof contentType === "string" ? contentType : "application/octet-stream",
        bytes: new Uint8Array(response.rawPayload),
      };
    },
  };
}
