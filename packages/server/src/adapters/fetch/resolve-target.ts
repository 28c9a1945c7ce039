import { lookup as dnsLookup } from "node:dns/promises";
import { isPublicAddress } from "./address-policy.ts";
import type { Allowlist } from "./allowlist.ts";
import { isAllowedPort, isBlockedHostname, type OutboundTarget } from "./url-policy.ts";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * `kind` tells a name that does not resolve from one that resolves to a non-public address, for
 * server-side use only: the `reason` of both is the same {@link NO_PUBLIC_ADDRESS}, so a caller
 * probing `webhook_url` or an image URL cannot learn which internal host names exist.
 */
export type ResolveVerdict =
  | { ok: true; addresses: [ResolvedAddress, ...ResolvedAddress[]] }
  | { ok: false; kind: "blocked"; reason: string }
  | { ok: false; kind: "unresolvable"; reason: string };

/**
 * What the caller is told about a host NAME whose DNS answer cannot be used: none at all, or one
 * with a non-public address. One reason for both, or the difference would be an oracle for
 * internal DNS ("intranet-db.corp" resolving to 10.x vs not existing).
 */
export const NO_PUBLIC_ADDRESS = "host does not resolve to a public address";

export const systemLookup: Lookup = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, order: "verbatim" });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

// Resolves the host once and judges EVERY address: one non-public answer
// blocks the URL, even if another is public, because we cannot know which one
// a later resolution would pick. The caller connects only to the returned
// addresses (DNS rebinding cannot swap them between check and connect).
export async function resolveTarget(
  target: OutboundTarget,
  allowlist: Allowlist,
  lookup: Lookup,
): Promise<ResolveVerdict> {
  const { hostname, port } = target;
  if (allowlist.allows(hostname, port)) {
    const answers = await resolveAll(target, lookup);
    if (answers === null) return { ok: false, kind: "unresolvable", reason: NO_PUBLIC_ADDRESS };
    return { ok: true, addresses: answers };
  }

  const policyReason = isBlockedHostname(hostname)
    ? "host is not allowed"
    : !isAllowedPort(port)
      ? `port ${port} is not allowed`
      : null;
  // Skip DNS when no allow-listed address:port could rescue the URL.
  if (policyReason !== null && !allowlist.mentionsPort(port)) {
    return { ok: false, kind: "blocked", reason: policyReason };
  }

  const answers = await resolveAll(target, lookup);
  if (answers === null) {
    return policyReason !== null
      ? { ok: false, kind: "blocked", reason: policyReason }
      : { ok: false, kind: "unresolvable", reason: NO_PUBLIC_ADDRESS };
  }
  for (const answer of answers) {
    if (allowlist.allows(answer.address, port)) continue;
    if (policyReason !== null) return { ok: false, kind: "blocked", reason: policyReason };
    if (!isPublicAddress(answer.address)) {
      // A literal IP in the URL keeps its own, explicit reason: no DNS was asked, so it tells the
      // caller only what they wrote themselves (whether 10.0.0.7 is private is public knowledge).
      const reason = target.ipFamily === 0 ? NO_PUBLIC_ADDRESS : "address is not public";
      return { ok: false, kind: "blocked", reason };
    }
  }
  return { ok: true, addresses: answers };
}

async function resolveAll(
  target: OutboundTarget,
  lookup: Lookup,
): Promise<[ResolvedAddress, ...ResolvedAddress[]] | null> {
  if (target.ipFamily !== 0) return [{ address: target.hostname, family: target.ipFamily }];
  try {
    const [first, ...rest] = await lookup(target.hostname);
    return first === undefined ? null : [first, ...rest];
  } catch {
    return null;
  }
}
