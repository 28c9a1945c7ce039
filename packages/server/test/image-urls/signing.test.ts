import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type SignImageUrlOptions, signImageUrl } from "@pictor/client";
import { describe, expect, it } from "vitest";
import {
  canonicalPath,
  parseQuery,
  signString,
  stringToSign,
} from "../../src/domain/image-urls/canonical.ts";

// The test vectors of docs/on-demand-urls.md: the server's verifier, the client's signer (Web Crypto)
// and the CLI must all agree on them.
const base = { baseUrl: "https://img.example.com", keyId: "usk_test", secret: "ussec_test-secret" };
const VECTORS: { options: SignImageUrlOptions; url: string }[] = [
  {
    options: { ...base, template: "blog-og-card", values: { headline: "Hello, world!", bg: "#FF6600" } },
    url: "https://img.example.com/i/usk_test/blog-og-card.png?bg=%23FF6600&headline=Hello%2C%20world%21&sig=91d85c4c1d93b4084a4cdfc2b334e955223777bbf003b964ab01063a435c2e43",
  },
  {
    options: {
      ...base,
      template: "blog-og-card",
      format: "jpg" as const,
      values: { headline: "Ça coûte 5€ (tout compris)*", photo: "https://example.com/a b.png?x=1&y=2" },
      frame: "square",
      scale: 2,
      version: 3,
      expires: 1893456000,
      fallback: "image" as const,
    },
    url: "https://img.example.com/i/usk_test/blog-og-card.jpg?expires=1893456000&fallback=image&frame=square&headline=%C3%87a%20co%C3%BBte%205%E2%82%AC%20%28tout%20compris%29%2A&photo=https%3A%2F%2Fexample.com%2Fa%20b.png%3Fx%3D1%26y%3D2&scale=2&v=3&sig=e8a7e31b21b06fb4b86af8ae3ad03e31ee1d38722bc5ae7ee96a190f13d6d022",
  },
  {
    options: { ...base, template: "plain", format: "webp" as const },
    url: "https://img.example.com/i/usk_test/plain.webp?sig=482aec439f0588d034d7952affc0d95fa7ee707e62d715bf304d28f70cc0943b",
  },
];

/** What the server computes for a URL as it arrives. */
function serverSignature(url: string) {
  const u = new URL(url);
  const [, , keyId, file] = u.pathname.split("/");
  const dot = (file ?? "").lastIndexOf(".");
  const parsed = parseQuery(u.search.slice(1));
  if (!parsed.ok) throw new Error(parsed.message);
  const path = canonicalPath(keyId ?? "", (file ?? "").slice(0, dot), (file ?? "").slice(dot + 1));
  return { given: parsed.sig, expected: signString(base.secret, stringToSign(path, parsed.params)) };
}

describe("image URL signing: test vectors", () => {
  it("the client produces the documented URLs", async () => {
    for (const v of VECTORS) expect(await signImageUrl(v.options)).toBe(v.url);
  });

  it("the server verifies them, also reordered and with + for spaces and lowercase escapes", () => {
    for (const v of VECTORS) {
      const { given, expected } = serverSignature(v.url);
      expect(given).toBe(expected);
      const u = new URL(v.url);
      const shuffled = u.search.slice(1).split("&").reverse().join("&").replace(/%20/g, "+");
      const lower = shuffled.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
      const again = serverSignature(`${u.origin}${u.pathname}?${lower}`);
      expect(again.given).toBe(again.expected);
    }
  });

  it("a parameter given twice or a malformed escape is refused", () => {
    expect(parseQuery("a=1&a=2").ok).toBe(false);
    expect(parseQuery("a=%E0%A4%A").ok).toBe(false);
    expect(parseQuery("sig=1&sig=2").ok).toBe(false);
  });

  it("pictor url prints the same URL", () => {
    const bin = fileURLToPath(new URL("../../bin/pictor.js", import.meta.url));
    const out = execFileSync(
      process.execPath,
      [bin, "url", "blog-og-card", "headline=Hello, world!", "bg=#FF6600", "--key-id", "usk_test"],
      {
        env: { ...process.env, PICTOR_URL_SECRET: base.secret, PICTOR_PUBLIC_URL: base.baseUrl },
        encoding: "utf8",
      },
    );
    expect(out.trim()).toBe(VECTORS[0]?.url);
  });
});
