// On-demand image URLs: sign a URL that renders a published template, for an
// og:image tag or an <img>. Web Crypto only (globalThis.crypto.subtle), so it runs in Node 20+,
// Deno, Bun, browsers' workers and edge runtimes (Cloudflare Workers, Vercel Edge) alike. Keep the
// secret server-side: sign where the page is generated, never in a browser.
//
// The canonical form (docs/on-demand-urls.md, packages/server/src/domain/image-urls/canonical.ts):
//   <path>?<query>, path = /i/<key id>/<template>.<ext>, query = the parameters except sig, each
//   name and value encoded as RFC 3986 unreserved-only (%XX uppercase), sorted by encoded name,
//   joined name=value with &. sig = lowercase hex HMAC-SHA256(secret as UTF-8, canonical string).

export type ImageUrlFormat = "png" | "jpg" | "webp" | "gif" | "mp4";

export interface SignImageUrlOptions {
  /** Where the Pictor server (or the CDN in front of it) is reached, e.g. `https://img.example.com`. */
  baseUrl: string;
  /** `usk_…` of the URL-signing key (POST /v1/url-signing-keys). */
  keyId: string;
  /** `ussec_…` of that key. Server-side only. */
  secret: string;
  /** Key (or `tpl_…` id) of a published template. */
  template: string;
  /** Default `png`. */
  format?: ImageUrlFormat;
  /** Slot values by slot name: text, colour (`#RRGGBB`), image URL or asset id. */
  values?: Record<string, string | number>;
  frame?: string;
  /** 1 to 4; costs ceil(scale²) credits on the first request only. */
  scale?: number;
  /** Pin a published template version: the URL's image never changes (cached immutable). */
  version?: number;
  /** Unix seconds or a Date after which the URL answers 403. */
  expires?: number | Date;
  /** `image`: errors answer a small placeholder PNG (with the error status) instead of JSON. */
  fallback?: "image";
}

const RESERVED = new Set(["frame", "scale", "v", "expires", "fallback", "sig"]);

/** RFC 3986 unreserved characters stay; every other UTF-8 byte is %XX (uppercase hex). */
export function encodeImageUrlComponent(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The string that is signed, from decoded parameters (without `sig`). */
export function imageUrlStringToSign(path: string, params: ReadonlyArray<readonly [string, string]>): string {
  const pairs = params
    .filter(([name]) => name !== "sig")
    .map(([name, value]) => [encodeImageUrlComponent(name), encodeImageUrlComponent(value)] as const);
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${path}?${pairs.map(([n, v]) => `${n}=${v}`).join("&")}`;
}

async function hmacSha256Hex(secret: string, text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("signImageUrl needs Web Crypto (globalThis.crypto.subtle)");
  const encoder = new TextEncoder();
  const key = await subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await subtle.sign("HMAC", key, encoder.encode(text)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Builds and signs an on-demand image URL. Resolves with the absolute URL. */
export async function signImageUrl(options: SignImageUrlOptions): Promise<string> {
  if (!options.secret) throw new TypeError("secret is required");
  if (!options.keyId) throw new TypeError("keyId is required");
  const format = options.format ?? "png";
  const params: [string, string][] = [];
  for (const [name, value] of Object.entries(options.values ?? {})) {
    if (RESERVED.has(name)) {
      throw new TypeError(
        `'${name}' is a reserved parameter of image URLs; a slot of that name cannot be set`,
      );
    }
    params.push([name, String(value)]);
  }
  if (options.frame !== undefined) params.push(["frame", options.frame]);
  if (options.scale !== undefined) params.push(["scale", String(options.scale)]);
  if (options.version !== undefined) params.push(["v", String(options.version)]);
  if (options.expires !== undefined) {
    const seconds =
      options.expires instanceof Date
        ? Math.floor(options.expires.getTime() / 1000)
        : Math.floor(options.expires);
    params.push(["expires", String(seconds)]);
  }
  if (options.fallback !== undefined) params.push(["fallback", options.fallback]);
  const path = `/i/${encodeImageUrlComponent(options.keyId)}/${encodeImageUrlComponent(options.template)}.${format}`;
  const text = imageUrlStringToSign(path, params);
  const sig = await hmacSha256Hex(options.secret, text);
  const query = text.slice(text.indexOf("?") + 1);
  return `${options.baseUrl.replace(/\/+$/, "")}${path}?${query === "" ? "" : `${query}&`}sig=${sig}`;
}
