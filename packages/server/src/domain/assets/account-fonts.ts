import { createHash } from "node:crypto";

/** An uploaded face as the render path needs it: the family the template names and where its bytes are. */
export interface AccountFontFace {
  assetId: string;
  family: string;
  blobKey: string;
}

/**
 * The engine-wide family name of an account's family. Two accounts may both upload "Brand Sans",
 * and one engine serves every account, so the name carries the account; it also carries the set of
 * faces, so a face uploaded later gets a fresh name (the engine caches family lookups).
 */
export function engineFamilyName(
  accountId: string,
  family: string,
  faces: readonly AccountFontFace[],
): string {
  const ids = faces
    .map((f) => f.assetId)
    .sort()
    .join(",");
  return `pictor:${accountId}:${family}:${createHash("sha256").update(ids).digest("hex").slice(0, 12)}`;
}
