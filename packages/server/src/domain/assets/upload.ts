import { createHash } from "node:crypto";
import type { AssetLibrary, FontFaceInfo, LibraryAsset } from "../../ports/asset-library.ts";
import type { AssetRecord } from "../../ports/asset-store.ts";
import type { BlobStore } from "../../ports/blob-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { UploadInspector } from "../../ports/upload-inspector.ts";
import { newAssetToken, newId } from "../ids.ts";
import { sanitizeAssetName } from "./asset-name.ts";
import { normalizeFolder } from "./folders.ts";
import { sniffFont } from "./font-magic.ts";

export interface UploadDeps {
  library: AssetLibrary;
  blobs: BlobStore;
  clock: Clock;
  /** Decides whether the bytes are an image or font the renderer accepts (sharp, CanvasKit). */
  inspector: UploadInspector;
  /**
   * Bytes the account's stored files may take with this upload (its storage quota); null or absent:
   * no quota (the admin command line). Render outputs count toward it, but are never refused for it.
   */
  quotaBytes?: number | null;
}

export interface UploadInput {
  accountId: string;
  bytes: Uint8Array;
  /** Client file name or URL path; only its last segment is kept. */
  filename?: string | undefined;
  folder?: string | undefined;
  tags?: string[] | undefined;
  metadata?: Record<string, string> | undefined;
}

export type UploadOutcome =
  | { ok: true; asset: LibraryAsset; created: boolean }
  | {
      ok: false;
      code: "image_invalid" | "font_invalid" | "payload_too_large" | "invalid_request";
      message: string;
      path: string;
    }
  | {
      ok: false;
      code: "storage_quota_exceeded";
      message: string;
      path: string;
      /** The quota, what the account stores, and the size of the refused file, in bytes. */
      quotaBytes: number;
      usedBytes: number;
      fileBytes: number;
    };

/** Fonts live in `fonts/` (or below) so a template's family names resolve against one place. */
export const FONT_FOLDER = "fonts/";
const DEFAULT_IMAGE_FOLDER = "uploads/";

const EXT = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "font/ttf": "ttf",
  "font/otf": "otf",
} as const;

/**
 * Validates, dedupes and stores one upload. Identical bytes already uploaded by the account return
 * the existing asset unchanged (`created: false`): the bytes are stored once and the caller moves or
 * tags it with PATCH.
 */
export async function uploadAsset(deps: UploadDeps, input: UploadInput): Promise<UploadOutcome> {
  const isFont = sniffFont(input.bytes) !== null;
  let folder = isFont ? FONT_FOLDER : DEFAULT_IMAGE_FOLDER;
  if (input.folder !== undefined) {
    const normalized = normalizeFolder(input.folder, "folder");
    if (!normalized.ok)
      return { ok: false, code: "invalid_request", message: normalized.message, path: "folder" };
    folder = normalized.value;
  }
  if (isFont && !folder.startsWith(FONT_FOLDER)) {
    const message = `Fonts are stored in '${FONT_FOLDER}' or a folder below it, not '${folder}'.`;
    return { ok: false, code: "invalid_request", message, path: "folder" };
  }

  let stored: Uint8Array;
  let contentType: keyof typeof EXT;
  let width: number | null = null;
  let height: number | null = null;
  let font: FontFaceInfo | null = null;
  if (isFont) {
    const inspected = await deps.inspector.inspectFont(input.bytes);
    if (!inspected.ok) {
      const message = `Bad font file: ${inspected.refusal.reason}.`;
      return { ok: false, code: "font_invalid", message, path: "file" };
    }
    stored = inspected.file.sfnt;
    contentType = inspected.file.contentType;
    font = inspected.file.info;
  } else {
    const inspected = await deps.inspector.inspectImage(input.bytes);
    if (!inspected.ok) {
      return {
        ok: false,
        code: inspected.refusal.tooLarge ? "payload_too_large" : "image_invalid",
        message: `Not an accepted image: ${inspected.refusal.reason}.`,
        path: "file",
      };
    }
    stored = input.bytes;
    ({ contentType, width, height } = inspected.file);
  }

  const sha256 = createHash("sha256").update(stored).digest("hex");
  const existing = await deps.library.findBySha256(input.accountId, sha256);
  if (existing) return { ok: true, asset: existing, created: false };

  // Checked before the bytes are stored, so a refused upload stores nothing. Two uploads at once may
  // both pass with room for one: the quota is exceeded by at most what was in flight.
  if (deps.quotaBytes !== undefined && deps.quotaBytes !== null) {
    const used = await deps.library.storedBytes(input.accountId);
    if (used + stored.byteLength > deps.quotaBytes) {
      return {
        ok: false,
        code: "storage_quota_exceeded",
        message: `This file (${stored.byteLength} bytes) would take the account's stored files to ${used + stored.byteLength} bytes, over its ${deps.quotaBytes}-byte storage quota. Delete assets or render outputs to make room.`,
        path: "file",
        quotaBytes: deps.quotaBytes,
        usedBytes: used,
        fileBytes: stored.byteLength,
      };
    }
  }

  const ext = EXT[contentType];
  const id = newId("ast");
  // Keyed by the record, not by the hash: bytes deleted with their last record and uploaded again at
  // the same moment land under a new key, so the delete can never remove the new upload's file.
  const blobKey = `uploads/${input.accountId}/${id}.${ext}`;
  await deps.blobs.put(blobKey, stored);
  const asset: AssetRecord = {
    id,
    accountId: input.accountId,
    folder,
    name: fileName(input.filename, font ? `${font.family}.${ext}` : `${sha256.slice(0, 12)}.${ext}`),
    contentType,
    byteSize: stored.byteLength,
    width,
    height,
    blobKey,
    token: newAssetToken(),
    etag: `"${sha256.slice(0, 32)}"`,
    metadata: input.metadata ?? {},
    tags: [...new Set(input.tags ?? [])],
    renderId: null,
    createdAt: deps.clock.now().toISOString(),
  };
  try {
    await deps.library.insert(asset, { sha256, font });
    return { ok: true, asset: { ...asset, sha256, font }, created: true };
  } catch (error) {
    // No record names the key just written. Failing to remove it only leaves unreferenced bytes, which
    // must not turn a successful dedupe below into an error.
    await deps.blobs.delete(blobKey).catch(() => undefined);
    // The same bytes uploaded twice at once: the unique (account, sha256) index lets one win.
    const winner = await deps.library.findBySha256(input.accountId, sha256);
    if (winner) return { ok: true, asset: winner, created: false };
    throw error;
  }
}

/** The given name as PATCH would store it (sanitizeAssetName), or `fallback` when nothing is left. */
function fileName(given: string | undefined, fallback: string): string {
  const clean = sanitizeAssetName(given ?? "");
  return clean === "" ? fallback : clean;
}
