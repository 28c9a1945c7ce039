/** At most this many characters (code points) of an asset's name are kept. */
export const MAX_ASSET_NAME = 200;

// Control characters (C0, DEL, C1: NUL, CR, LF, tab, ESC…), the bidirectional formatting characters
// that reorder how a name is displayed (U+202E makes "gnp.exe" read "exe.png"): embeddings and
// overrides U+202A–U+202E, isolates U+2066–U+2069, marks U+200E, U+200F and U+061C, and the line and
// paragraph separators U+2028, U+2029 (line breaks to many readers of logs and JSON).
const STRIPPED = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/gu;
// Half of a surrogate pair on its own (a JSON string may hold one): no character, and no UTF-8 form.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The name an asset is stored under, from a client's file name, a URL path or a name given with an
 * upload, an import or `PATCH /v1/assets/:id`: only the last path segment (after the last `/` or `\`)
 * is kept, the characters above are removed (a lone surrogate becomes U+FFFD), surrounding white
 * space is trimmed and at most 200 characters are kept. What is left may be empty (nothing usable,
 * or only `.` or `..`): the caller chooses a fallback or refuses. Other characters (`<`, `"`, emoji…) are kept: a name is text, and
 * whoever displays it escapes it (file responses give it in `Content-Disposition` as `filename*`).
 */
export function sanitizeAssetName(given: string): string {
  const segment = given.split(/[/\\]/).at(-1) ?? "";
  const text = segment.replace(LONE_SURROGATE, "\uFFFD").replace(STRIPPED, "").trim();
  const clean = [...text].slice(0, MAX_ASSET_NAME).join("").trim();
  return clean === "." || clean === ".." ? "" : clean;
}
