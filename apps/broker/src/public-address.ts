import { BlockList, isIP } from "node:net";

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
  ["100::", 64],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/**
 * True for a public unicast address. Loopback, private, link-local, CGNAT,
 * documentation, multicast and reserved ranges are refused, in IPv4, IPv6, and
 * the IPv6 spellings that embed an IPv4 address (mapped, compatible, NAT64).
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, "ipv4");
  if (family !== 6) return false;
  const embedded = embeddedIPv4(address);
  if (embedded !== undefined) return isPublicAddress(embedded);
  return !blocked.check(address, "ipv6");
}

/** The IPv4 address inside `::ffff:a.b.c.d`, `::a.b.c.d`, `64:ff9b::a.b.c.d` (hex spellings too). */
function embeddedIPv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const match = /^(?:::ffff:|::|64:ff9b::|::ffff:0:)(.+)$/.exec(lower);
  if (match === null) return undefined;
  const rest = match[1] as string;
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest);
  if (hex === null) return undefined;
  const high = Number.parseInt(hex[1] as string, 16);
  const low = Number.parseInt(hex[2] as string, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}
