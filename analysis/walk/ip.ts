// The engine's shapes of the address arithmetic of parsers/net/ (one module for both families):
// undefined for "not an address", inclusive numeric ranges for prefixes. IPv4 as uint32, IPv6 as
// 32-digit hex strings (fixed width, so string order is numeric order); map keys use the canonical text
// (RFC 5952 for IPv6).
import { cidrContains, hexToIpv6, intToIpv4, ipv4ToInt, ipv6ToHex, maskToPrefix, prefixRange4, prefixRange6, rangeBits6 } from '../../parsers/net/ip.ts';

/**
 * Addresses already read (-1: not IPv4). A walk reads the same few addresses many times (every rule
 * condition compares them), and reach walks tens of thousands; the map is emptied when it grows large.
 */
const v4Seen = new Map<string, number>();

export function ipToInt(ip: string | undefined): number | undefined {
  if (!ip) return undefined;
  const seen = v4Seen.get(ip);
  if (seen !== undefined) return seen < 0 ? undefined : seen;
  const n = ipv4ToInt(ip) ?? undefined;
  if (v4Seen.size >= 65_536) v4Seen.clear();
  v4Seen.set(ip, n ?? -1);
  return n;
}

export function intToIp(n: number): string {
  return intToIpv4(n >>> 0) as string;
}

/** An IPv4 prefix (or a bare address, taken as /32) as an inclusive range of uint32. */
export function cidrRange(c: string | undefined): { lo: number; hi: number; bits: number } | undefined {
  return c ? prefixRange4(c) : undefined;
}

export function maskBits(mask: string | undefined): number | undefined {
  return mask ? maskToPrefix(mask) ?? undefined : undefined;
}

/** Prefix length of an inclusive range when it is a CIDR block, else an estimate from its size. */
export function rangeBits(lo: number, hi: number): number {
  const size = hi - lo + 1;
  return 32 - Math.ceil(Math.log2(Math.max(1, size)));
}

export type Family = 4 | 6;

export function familyOf(ip: string | undefined): Family | undefined {
  if (!ip) return undefined;
  if (ipToInt(ip) !== undefined) return 4;
  if (ipv6ToHex(ip) !== undefined) return 6;
  return undefined;
}

/** The text an address is keyed by: dotted IPv4 as given, IPv6 in RFC 5952 form; undefined when not an address. */
export function canonIp(ip: string | undefined): string | undefined {
  if (!ip) return undefined;
  const t = ip.trim();
  if (ipToInt(t) !== undefined) return t;
  const h = ipv6ToHex(t);
  return h === undefined ? undefined : hexToIpv6(h);
}

export { ipv6ToHex, hexToIpv6, rangeBits6 };

/** An IPv6 prefix as an inclusive hex range. */
export function cidrRange6(c: string | undefined): { lo: string; hi: string; bits: number } | undefined {
  return c ? prefixRange6(c) : undefined;
}

/** The prefix length of a printed prefix of either family (`10.244.0.0/16` → 16); undefined when it is none. */
export function prefixBits(c: string | undefined): number | undefined {
  return (cidrRange(c) ?? cidrRange6(c))?.bits;
}

/**
 * An OutBoundNAT exception wide enough to be a pod range: shorter than /8 is a typo (10.244.0.0/0),
 * never a cluster range (the bar checks/remote-subnets.ts and checks/outboundnat.ts hold too).
 */
export function podRangeCandidate(c: string): boolean {
  return (prefixBits(c) ?? -1) >= 8;
}

/** Whether an address of either family lies in a printed prefix (`10.0.0.0/8`, `fd00::/64`). */
export function inCidr(ip: string, cidr: string): boolean {
  return cidrContains(cidr, ip);
}
