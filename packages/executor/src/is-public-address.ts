import { isIP } from "node:net";

// IPv4 blocks that are not public unicast (IANA special-purpose registry), as [first octets value, prefix length].
const IPV4_REFUSED: readonly (readonly [number, number])[] = [
  [ipv4(0, 0, 0, 0), 8], // "this network"
  [ipv4(10, 0, 0, 0), 8], // private
  [ipv4(100, 64, 0, 0), 10], // CGNAT shared space
  [ipv4(127, 0, 0, 0), 8], // loopback
  [ipv4(169, 254, 0, 0), 16], // link-local, cloud metadata
  [ipv4(172, 16, 0, 0), 12], // private
  [ipv4(192, 0, 0, 0), 24], // IETF protocol assignments
  [ipv4(192, 0, 2, 0), 24], // documentation
  [ipv4(192, 88, 99, 0), 24], // 6to4 relay anycast
  [ipv4(192, 168, 0, 0), 16], // private
  [ipv4(198, 18, 0, 0), 15], // benchmarking
  [ipv4(198, 51, 100, 0), 24], // documentation
  [ipv4(203, 0, 113, 0), 24], // documentation
  [ipv4(224, 0, 0, 0), 4], // multicast
  [ipv4(240, 0, 0, 0), 4], // reserved, broadcast
];

/**
 * Whether `address` (an IPv4 or IPv6 literal) is public unicast: not loopback,
 * private, link-local, CGNAT, unique-local, multicast, documentation or reserved,
 * including the IPv4-mapped, IPv4-translated, NAT64 and 6to4 spellings of those.
 * Anything that is not an IP literal, or carries a zone id, is not public.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPublicIPv4(parseIPv4(address));
  if (family === 6 && !address.includes("%")) return isPublicIPv6(parseIPv6(address));
  return false;
}

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function parseIPv4(address: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = address.split(".").map(Number);
  return ipv4(a, b, c, d);
}

function isPublicIPv4(value: number): boolean {
  for (const [network, prefix] of IPV4_REFUSED) {
    const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === network) return false;
  }
  return true;
}

/** Eight 16-bit groups; the address is already known to be valid IPv6 without a zone. */
function parseIPv6(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".", lastColon)) {
    const value = parseIPv4(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon + 1)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const [head = "", rest] = text.split("::");
  if (rest === undefined) return parse(head);
  const left = parse(head);
  const right = parse(rest);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function isPublicIPv6(groups: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const zeroThrough3 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  if (zeroThrough3 && g4 === 0 && g5 === 0xffff) return isPublicIPv4(embedded); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeroThrough3 && g4 === 0xffff && g5 === 0) return isPublicIPv4(embedded); // ::ffff:0:a.b.c.d, IPv4-translated
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPublicIPv4(embedded); // NAT64
  if (g0 === 0x2002) return isPublicIPv4(((g1 << 16) | g2) >>> 0); // 6to4
  if ((g0 & 0xe000) !== 0x2000) return false; // only 2000::/3 is global unicast
  if (g0 === 0x2001 && g1 < 0x0200) return false; // IETF protocol assignments, Teredo
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  if (g0 === 0x3fff && g1 < 0x1000) return false; // documentation
  return true;
}
