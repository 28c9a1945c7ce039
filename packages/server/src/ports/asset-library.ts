import type { AssetRecord } from "./asset-store.ts";

/** A font uploaded into `fonts/`: what the render path registers under the family name. */
export interface FontFaceInfo {
  family: string;
  /** usWeightClass rounded to 100..900. */
  weight: number;
  style: "normal" | "italic";
}

/** Facts about an uploaded file that the library indexes beside the asset record. */
export interface AssetFileInfo {
  /** Lowercase hex SHA-256 of the stored bytes; identical bytes in one account are stored once. */
  sha256: string;
  font: FontFaceInfo | null;
}

export interface CreatedRange {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

/** A validated `POST /v1/assets/query` body (folders normalised, timestamps ISO-8601 UTC). */
export interface AssetQuery {
  tagsAll: string[];
  tagsAny: string[];
  metadata: Record<string, string>;
  /** Normalised `a/b/`, or "" for the root. */
  folder: string | null;
  recursive: boolean;
  contentTypes: string[];
  created: CreatedRange;
  limit: number;
  cursor: AssetCursor | null;
}

/** Keyset position: the last row of the previous page in (created_at DESC, id DESC) order. */
export interface AssetCursor {
  createdAt: string;
  id: string;
}

export interface AssetPatch {
  folder?: string;
  name?: string;
  tags?: string[];
  metadata?: Record<string, string>;
}

/** An asset record with its file facts (null for starter images and assets from before hashes were recorded). */
export interface LibraryAsset extends AssetRecord {
  sha256: string | null;
  font: FontFaceInfo | null;
}

export interface AssetPage {
  assets: LibraryAsset[];
  next: AssetCursor | null;
}

/**
 * The searchable library over the asset records of AssetStore. Every method is scoped by
 * account: another account's asset is simply absent (404, never 403).
 */
export interface AssetLibrary {
  /** Inserts the record, its tag/metadata index rows and its file facts in one transaction. */
  insert(asset: AssetRecord, file: AssetFileInfo): Promise<void>;
  get(accountId: string, id: string): Promise<LibraryAsset | null>;
  /** The account's uploaded (non-render) asset with these bytes, if any. */
  findBySha256(accountId: string, sha256: string): Promise<LibraryAsset | null>;
  update(accountId: string, id: string, patch: AssetPatch): Promise<LibraryAsset | null>;
  /** Removes the record and its index rows; returns what was removed. */
  delete(accountId: string, id: string): Promise<LibraryAsset | null>;
  /**
   * Bytes of every file the account's asset records name (uploads, render outputs, starter images):
   * what its storage quota is measured against.
   */
  storedBytes(accountId: string): Promise<number>;
  /** Whether any asset record, of any account and of any kind (upload, render output, starter), names the blob. */
  isBlobReferenced(blobKey: string): Promise<boolean>;
  query(accountId: string, query: AssetQuery): Promise<AssetPage>;
  /** Font assets of the account, newest first. */
  fonts(accountId: string): Promise<(LibraryAsset & { font: FontFaceInfo })[]>;
}
