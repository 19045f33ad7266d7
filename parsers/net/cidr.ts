// Prefixes of both families (`10.0.0.0/8`, `fd00::/64`, a bare address taken as a host route), the
// addresses they contain, and the order of addresses. The prefix length is read by the strict rules
// of ../text/numbers.ts (`/`, `/ 8`, `/8.0`, `/0x8`, `/1e1` are not prefixes). Total; pure.
import { PREFIX_V4, PREFIX_V6, readInt } from '../text/numbers.ts';
import { intToIpv4, ipv4PrefixRange, ipv4ToUint } from './ip4.ts';
import { ipv6PrefixRange, ipv6ToHex, isIpv6 } from './ip6.ts';

export interface Cidr {
  family: 'ipv4' | 'ipv6';
  address: string;
  prefixLength: number;
  /** IPv4 only: network address as an unsigned integer and the first/last addresses covered. */
  network?: number;
  first?: string;
  last?: string;
}

/** Address text and prefix length of `a/n` (trimmed), or of a bare address with `hostBits`; undefined
 *  when the length is not a whole number in range. */
function split(s: string, max: typeof PREFIX_V4): { addr: string; bits: number } | undefined {
  const t = s.trim();
  const slash = t.indexOf('/');
  if (slash < 0) return { addr: t, bits: max.max };
  const bits = readInt(t.slice(slash + 1), max).value;
  // readInt trims; a blank on either side of the length is not CIDR text.
  return bits === undefined || /\s/.test(t.slice(slash + 1)) ? undefined : { addr: t.slice(0, slash), bits };
}

/** Parses `a.b.c.d/n` or `x:y::/n` (also a bare address, taken as a host route). Null when malformed. */
export function parseCidr(s: string): Cidr | null {
  const v4 = split(s, PREFIX_V4);
  const ip = v4 ? ipv4ToUint(v4.addr) : undefined;
  if (v4 && ip !== undefined) {
    const { lo, hi } = ipv4PrefixRange(ip, v4.bits);
    return { family: 'ipv4', address: v4.addr, prefixLength: v4.bits, network: lo, first: intToIpv4(lo) ?? undefined, last: intToIpv4(hi) ?? undefined };
  }
  const v6 = split(s, PREFIX_V6);
  if (v6 && isIpv6(v6.addr)) return { family: 'ipv6', address: v6.addr, prefixLength: v6.bits };
  return null;
}

/** An IPv4 prefix (or a bare address, taken as /32) as an inclusive range of uint32. */
export function prefixRange4(c: string): { lo: number; hi: number; bits: number } | undefined {
  const p = split(c, PREFIX_V4);
  const base = p ? ipv4ToUint(p.addr) : undefined;
  return p && base !== undefined ? { ...ipv4PrefixRange(base, p.bits), bits: p.bits } : undefined;
}

/** The first host address of an IPv4 prefix: its network address (host bits cleared: `10.0.0.77/24` →
 *  `10.0.0.1`) plus one; the network address itself for a /31 or /32, whose every address is a host
 *  (RFC 3021). Undefined when the text is not an IPv4 prefix. */
export function firstHostOf(cidr: string): string | undefined {
  const r = prefixRange4(cidr);
  return r ? (intToIpv4(r.bits >= 31 ? r.lo : r.lo + 1) ?? undefined) : undefined;
}

/** An IPv6 prefix (or a bare address, taken as /128; brackets and a zone allowed) as an inclusive hex range. */
export function prefixRange6(c: string): { lo: string; hi: string; bits: number } | undefined {
  const p = split(c, PREFIX_V6);
  const base = p ? ipv6ToHex(p.addr) : undefined;
  return p && base !== undefined ? { ...ipv6PrefixRange(base, p.bits), bits: p.bits } : undefined;
}

/** Whether an address of either family lies in a printed prefix (`10.0.0.0/8`, `fd00::/64`); an
 *  address never lies in a prefix of the other family. */
export function cidrContains(cidr: string, ip: string): boolean {
  const n = ipv4ToUint(ip.trim());
  if (n !== undefined) {
    const c = prefixRange4(cidr);
    return !!c && n >= c.lo && n <= c.hi;
  }
  const h = ipv6ToHex(ip);
  const c6 = h === undefined ? undefined : prefixRange6(cidr);
  return !!c6 && h! >= c6.lo && h! <= c6.hi;
}

/** Numeric order of two addresses, IPv4 before IPv6; undefined when either is not an address. */
export function compareIp(a: string, b: string): number | undefined {
  const key = (s: string): [number, number | string] | undefined => {
    const n = ipv4ToUint(s.trim());
    if (n !== undefined) return [4, n];
    const h = ipv6ToHex(s);
    return h === undefined ? undefined : [6, h];
  };
  const x = key(a);
  const y = key(b);
  if (!x || !y) return undefined;
  if (x[0] !== y[0]) return x[0] - y[0];
  return x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0;
}
