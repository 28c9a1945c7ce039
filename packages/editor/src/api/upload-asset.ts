import { storedKey } from "./client.ts";

/** What POST /v1/assets answers, as far as the editor reads it. */
export interface UploadedAsset {
  id: string;
  content_type: string;
  width: number | null;
  height: number | null;
  font?: { family: string } | null;
}

/** The image types the library takes (the server checks the bytes again). */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];

export function isImageFile(file: File): boolean {
  return IMAGE_TYPES.includes(file.type);
}

/** Fonts by name as well as type: browsers give font files an empty or vendor type. */
export function isFontFile(file: File): boolean {
  return /^font\//.test(file.type) || /\.(ttf|otf|woff2?)$/i.test(file.name);
}

/** Uploads a file into the account's library (multipart, as the asset library's Upload does). */
export async function uploadAsset(
  file: File,
  fields: { folder?: string; tags?: string[] } = {},
): Promise<UploadedAsset> {
  const form = new FormData();
  form.append("file", file);
  if (fields.folder) form.append("folder", fields.folder);
  if (fields.tags && fields.tags.length > 0) form.append("tags", JSON.stringify(fields.tags));
  const res = await fetch("/v1/assets", {
    method: "POST",
    headers: { Authorization: `Bearer ${storedKey() ?? ""}` },
    body: form,
  });
  const body = (await res.json()) as UploadedAsset & { error?: { message: string } };
  if (!res.ok) throw new Error(body.error?.message ?? `HTTP ${res.status}`);
  return body;
}
