import sharp from "sharp";
import type { TestServer } from "../api/support.ts";

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
