import type { FastifyReply } from "fastify";
import { sanitizeAssetName } from "../domain/assets/asset-name.ts";
import { EXT_BY_TYPE } from "./views.ts";

/**
 * Raster images: a browser shows them as a picture and runs nothing in them, so they are served
 * inline. Anything else a file route serves (fonts, PDF, SVG, which can hold scripts) is a download.
 */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

/**
 * Headers of every response that carries a stored file (`/a/…`, `/o/…`, `/i/…`) on the origin that
 * also serves the editor and its API key: the browser never sniffs another type, a file opened on
 * its own runs in a sandbox (a unique origin: no scripts, no access to the editor's storage), and a
 * file that is not a raster image is downloaded under a safe name instead of shown.
 */
export function fileHeaders(reply: FastifyReply, file: { contentType: string; name: string }): void {
  reply.header("X-Content-Type-Options", "nosniff");
  reply.header("Content-Security-Policy", "sandbox");
  if (!INLINE_TYPES.has(file.contentType)) {
    reply.header("Content-Disposition", attachment(file.name, EXT_BY_TYPE[file.contentType] ?? "bin"));
  }
}

/**
 * `attachment; filename="<ASCII>"; filename*=UTF-8''<percent-encoded>` (RFC 6266, RFC 8187): the name
 * cleaned as asset names are (no path, control or bidi characters), ending in the extension of the
 * file's type; `filename` keeps only characters that need no quoting, for clients without `filename*`.
 */
export function attachment(name: string, ext: string): string {
  let clean = sanitizeAssetName(name);
  if (clean === "") clean = "download";
  if (!clean.toLowerCase().endsWith(`.${ext}`)) clean = `${clean}.${ext}`;
  const ascii = clean.replace(/[^A-Za-z0-9 ._-]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(clean)}`;
}

/** RFC 8187 `value-chars`: UTF-8 bytes, percent-encoded except attr-char. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
