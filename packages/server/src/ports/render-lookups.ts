import type { AccountFontFace } from "../domain/assets/account-fonts.ts";

/**
 * What a render thread reads besides its task: asset rows, always scoped to the render's account (a
 * template may name `asset://` ids, and only the account's own count).
 */
export interface RenderLookups {
  /** The blob of an asset of this account; null for another account's asset or none. */
  blobKeyOf(accountId: string, assetId: string): Promise<string | null>;
  /** The account's uploaded faces of one family, ordered by asset id. */
  facesOf(accountId: string, family: string): Promise<AccountFontFace[]>;
}
