import ipaddr from "ipaddr.js";

// Which IP addresses an outbound request may connect to. ipaddr.js classifies
// the address; only its "unicast" range counts as public. Everything else
// (private, loopback, linkLocal, uniqueLocal, carrierGradeNat, multicast,
// unspecified, broadcast, reserved incl. 198.18/15 benchmarking and the
// documentation nets, ...) is refused, and so is IPv6 outside 2000::/3.
//
// IPv6 forms that carry an IPv4 address (IPv4-mapped ::ffff:a.b.c.d, the
// RFC 6145 translated form, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo
// 2001::/32) reach that IPv4 host, so they are decoded and the embedded
// address is judged instead: [::ffff:a9fe:a9fe] is 169.254.169.254.

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  return isPublicIPv6(parsed as ipaddr.IPv6);
}

// IANA allocates global unicast only from 2000::/3; ipaddr.js calls anything
// unlisted "unicast", including the deprecated IPv4-compatible ::a.b.c.d.
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

function isPublicIPv6(address: ipaddr.IPv6): boolean {
  const range = address.range();
  if (range === "unicast") return address.match(GLOBAL_UNICAST);
  const embedded = embeddedIPv4(address, range);
  // Unknown embeddings (e.g. the NAT64 local-use 64:ff9b:1::/48) stay refused.
  if (embedded.length === 0) return false;
  return embedded.every((v4) => v4.range() === "unicast");
}

function embeddedIPv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4[] {
  const words = address.parts;
  const v4 = (high: number | undefined, low: number | undefined): ipaddr.IPv4 =>
    ipaddr.IPv4.parse([(high ?? 0) >> 8, (high ?? 0) & 0xff, (low ?? 0) >> 8, (low ?? 0) & 0xff].join("."));
  switch (range) {
    case "ipv4Mapped":
    case "rfc6145":
      return [v4(words[6], words[7])];
    case "rfc6052":
      // Only the well-known prefix 64:ff9b::/96 embeds the address in the last 32 bits.
      if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) {
        return [v4(words[6], words[7])];
      }
      return [];
    case "6to4":
      return [v4(words[1], words[2])];
    case "teredo":
      // RFC 4380: server IPv4 in bits 32-63, client IPv4 inverted in the last 32 bits.
      return [v4(words[2], words[3]), v4((words[6] ?? 0) ^ 0xffff, (words[7] ?? 0) ^ 0xffff)];
    default:
      return [];
  }
}
