// IPv6 destinations as numbers, for the interval splitting of reach (issue #25 on dual-stack nodes).
// The address text is read and written by parsers/net (the one IP module: 32-digit hex, RFC 5952 text);
// this file only turns that hex into a bigint so an interval can say "the next address" (hi + 1) and
// "its middle". bigint over 4 × 32-bit words: measured on the dual-stack base (README.md, IPv6), the
// conversions are well under 1 % of a cell's walk, and the code stays that of one number.
import { hexToIpv6, ipv6ToHex, prefixRange6, rangeBits6 } from '../../../parsers/net/ip.ts';
import type { Interval } from '../intervals.ts';

export type Interval6 = Interval<bigint>;

export const IP6_MAX = (1n << 128n) - 1n;

/** An IPv6 address (any spelling parsers/net reads) as a bigint; undefined when not IPv6. */
export function ip6ToBig(ip: string | undefined): bigint | undefined {
  const h = ip ? ipv6ToHex(ip.trim()) : undefined;
  return h === undefined ? undefined : BigInt(`0x${h}`);
}

/** The 32-digit hex the engine and the VFP parser use, as a bigint. */
export const hexToBig = (hex: string): bigint => BigInt(`0x${hex}`);

const toHex = (n: bigint) => n.toString(16).padStart(32, '0');

/** RFC 5952 text of an address. */
export const bigToIp6 = (n: bigint): string => hexToIpv6(toHex(n));

/** An IPv6 prefix (`fd00::/64`, a bare address as /128) as an inclusive range; undefined when not one. */
export function prefix6(c: string | undefined): Interval6 | undefined {
  const r = c ? prefixRange6(c.trim()) : undefined;
  return r ? { lo: hexToBig(r.lo), hi: hexToBig(r.hi) } : undefined;
}

/** A value inside the interval a reader recognises as typical: its middle (never a range's edge). */
export const middle6 = (i: Interval6): bigint => i.lo + (i.hi - i.lo) / 2n;

/** How the text shows a range: one address, a prefix when the range is exactly one, else `lo-hi`. */
export function rangeText6(lo: string, hi: string): string {
  const a = ipv6ToHex(lo);
  const b = ipv6ToHex(hi);
  if (a === undefined || b === undefined) return `${lo}-${hi}`;
  if (a === b) return lo;
  const bits = rangeBits6(a, b);
  const p = prefixRange6(`${lo}/${bits}`);
  return p && p.lo === a && p.hi === b ? `${lo}/${bits}` : `${lo}-${hi}`;
}
