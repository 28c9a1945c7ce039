import { readFileSync } from "node:fs";
import sharp from "sharp";
import type { TestServer } from "../api/support.ts";

/** A WOFF2 font whose family ships with no Pictor font set: only an upload can draw it. */
export const ACME_WOFF2 = new Uint8Array(
  readFileSync(new URL("./fixtures/acme-brand-display.woff2", import.meta.url)),
);
export const ACME_FAMILY = "Acme Brand Display";

/** One text layer in `family`; nothing else on the canvas, so the glyph shapes decide every pixel. */
export function fontCard(key: string, family: string) {
  return {
    version: 1,
    key,
    name: "Font card",
    slots: [{ name: "title", type: "text", default: "BRAND 2026" }],
    frames: [
      {
        name: "main",
        width: 240,
        height: 60,
        background: "#FFFFFF",
        layers: [
          {
            id: "title",
            type: "text",
            x: 10,
            y: 8,
            width: 220,
            height: 44,
            text: "BRAND 2026",
            font: { family, size: 36 },
            color: "#1A1A1A",
            bind: { text: "title" },
          },
        ],
      },
    ],
  };
}

/** A distinct PNG per (width, colour): different bytes, so no accidental dedupe between tests. */
export async function pngBytes(width: number, colour = "#3366cc", height = width): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: colour } })
      .png()
      .toBuffer(),
  );
}

export interface UploadFields {
  folder?: string;
  name?: string;
  tags?: string;
  metadata?: string;
}

/** POST /v1/assets as multipart/form-data, the way a browser or curl -F sends it. */
export async function upload(
  t: { url: string },
  key: string,
  bytes: Uint8Array,
  fields: UploadFields = {},
  filename = "file.bin",
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>]), filename);
  const res = await fetch(`${t.url}/v1/assets`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  return { status: res.status, body: body as any };
}

export async function query(t: TestServer, key: string, body: unknown) {
  const { api } = await import("../api/support.ts");
  return api(t, "POST", "/v1/assets/query", { key, body });
}
