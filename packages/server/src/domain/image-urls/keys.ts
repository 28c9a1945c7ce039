import { randomBytes } from "node:crypto";
import type { Clock } from "../../ports/clock.ts";
import type { ImageUrlStore, UrlSigningKey } from "../../ports/image-url-store.ts";
import { fail, type Result } from "../failure.ts";

/** Keys an account may hold; a deployment needs one or two (one per site, plus one being retired). */
export const MAX_URL_SIGNING_KEYS = 10;
/** How long a rotated-out secret keeps verifying by default: long enough to redeploy every site. */
export const DEFAULT_ROTATION_GRACE_S = 7 * 24 * 3600;
/** The longest grace a rotation may ask for. */
export const MAX_ROTATION_GRACE_S = 30 * 24 * 3600;

export const newUrlSigningKeyId = () => `usk_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
export const newUrlSigningSecret = () => `ussec_${randomBytes(32).toString("base64url")}`;

export interface UrlKeyDeps {
  imageUrls: ImageUrlStore;
  clock: Clock;
}

export async function createUrlSigningKey(
  deps: UrlKeyDeps,
  accountId: string,
  name: string | null,
): Promise<Result<UrlSigningKey>> {
  if ((await deps.imageUrls.countKeys(accountId)) >= MAX_URL_SIGNING_KEYS) {
    return fail(
      "invalid_request",
      `An account holds at most ${MAX_URL_SIGNING_KEYS} URL-signing keys; delete one (DELETE /v1/url-signing-keys/:id) first.`,
    );
  }
  const key = {
    id: newUrlSigningKeyId(),
    accountId,
    name,
    secret: newUrlSigningSecret(),
    createdAt: deps.clock.now().toISOString(),
  };
  await deps.imageUrls.createKey(key);
  return { ok: true, value: { ...key, previous: null, rotatedAt: null } };
}

export async function rotateUrlSigningKey(
  deps: UrlKeyDeps,
  accountId: string,
  id: string,
  graceSeconds: number,
): Promise<UrlSigningKey | null> {
  const now = deps.clock.now();
  const rotated = await deps.imageUrls.rotateKey(accountId, id, {
    secret: newUrlSigningSecret(),
    previousExpiresAt: new Date(now.getTime() + graceSeconds * 1000).toISOString(),
    at: now.toISOString(),
  });
  if (!rotated) return null;
  const key = await deps.imageUrls.findKey(id, now.toISOString());
  return key && key.accountId === accountId ? key : null;
}
