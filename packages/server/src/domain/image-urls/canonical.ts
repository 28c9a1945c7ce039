import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed image URLs: the canonical form that is signed, and its HMAC. The same algorithm
 * is implemented with Web Crypto in @pictor/client (signImageUrl) and documented, with test
 * vectors, in docs/on-demand-urls.md. Any change here is a breaking change for every URL in the wild.
 *
 * String to sign: `<path>?<query>` where
 * - path is `/i/<key id>/<template>.<ext>`, each segment percent-encoded as below;
 * - query is every parameter except `sig`, name and value decoded (`+` is a space) and encoded again
 *   as below, joined `name=value`, sorted by encoded name (code unit order), joined with `&`
 *   (empty when there are none; the `?` stays).
 * Encoding: UTF-8, every byte except the RFC 3986 unreserved characters `A-Z a-z 0-9 - . _ ~` as
 * `%XX` with uppercase hex. The signature is the lowercase hex HMAC-SHA256 of that string, keyed with
 * the UTF-8 bytes of the whole secret (`ussec_…`), and travels as the `sig` parameter.
 */

/** RFC 3986 strict: encodeURIComponent leaves `!'()*` as they are, which we encode too. */
export function encodeComponent(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Decodes one query name or value the way forms and URLSearchParams do (`+` is a space); null if malformed. */
export function decodeComponent(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

export type ParsedQuery =
  | { ok: true; params: Map<string, string>; sig: string | null }
  | { ok: false; message: string };

/**
 * Splits a raw query string (without the `?`) into decoded parameters. A parameter given twice, or
 * one whose escapes are malformed, makes the whole query invalid: a URL must mean one thing.
 */
export function parseQuery(raw: string): ParsedQuery {
  const params = new Map<string, string>();
  let sig: string | null = null;
  for (const part of raw.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const name = decodeComponent(eq === -1 ? part : part.slice(0, eq));
    const value = decodeComponent(eq === -1 ? "" : part.slice(eq + 1));
    if (name === null || value === null)
      return { ok: false, message: "A query parameter has a malformed % escape." };
    if (name === "sig") {
      if (sig !== null) return { ok: false, message: "Parameter 'sig' is given twice." };
      sig = value;
      continue;
    }
    if (params.has(name)) return { ok: false, message: `Parameter '${name}' is given twice.` };
    params.set(name, value);
  }
  return { ok: true, params, sig };
}

export function canonicalPath(keyId: string, template: string, ext: string): string {
  return `/i/${encodeComponent(keyId)}/${encodeComponent(template)}.${encodeComponent(ext)}`;
}

export function canonicalQuery(params: Iterable<[string, string]>): string {
  const pairs = [...params]
    .filter(([name]) => name !== "sig")
    .map(([name, value]) => [encodeComponent(name), encodeComponent(value)] as const);
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join("&");
}

export function stringToSign(path: string, params: Iterable<[string, string]>): string {
  return `${path}?${canonicalQuery(params)}`;
}

export function signString(secret: string, text: string): string {
  return createHmac("sha256", secret).update(text, "utf8").digest("hex");
}

/** Constant-time comparison of a given signature with the expected one (lengths checked first). */
export function signatureMatches(secret: string, text: string, given: string): boolean {
  const expected = Buffer.from(signString(secret, text), "utf8");
  const actual = Buffer.from(given, "utf8");
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
