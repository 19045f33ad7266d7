// Address arithmetic the engine needs: IPv4 as uint32, IPv6 as 32-digit hex strings. Parsing is
// parsers/net/ip.ts's; this file only gives the engine's shapes (undefined for "not an address",
// inclusive numeric ranges for prefixes).
import { hexToIpv6, ipv6ToHex } from '../../parsers/vfp/conditions.ts';
import { intToIpv4, ipv4ToInt, maskToPrefix, parseCidr } from '../../parsers/net/ip.ts';

export function ipToInt(ip: string | undefined): number | undefined {
  return ip ? ipv4ToInt(ip) ?? undefined : undefined;
}

export function intToIp(n: number): string {
  return intToIpv4(n >>> 0) as string;
}

/** An IPv4 prefix (or a bare address, taken as /32) as an inclusive range of uint32. */
export function cidrRange(c: string | undefined): { lo: number; hi: number; bits: number } | undefined {
  const p = c ? parseCidr(c) : null;
  if (!p || p.family !== 'ipv4' || p.network === undefined) return undefined;
  const mask = p.prefixLength === 0 ? 0 : (0xffffffff << (32 - p.prefixLength)) >>> 0;
  return { lo: p.network, hi: (p.network | (~mask >>> 0)) >>> 0, bits: p.prefixLength };
}

export function maskBits(mask: string | undefined): number | undefined {
  return mask ? maskToPrefix(mask) ?? undefined : undefined;
}

/** Prefix length of an inclusive range when it is a CIDR block, else an estimate from its size. */
export function rangeBits(lo: number, hi: number): number {
  const size = hi - lo + 1;
  return 32 - Math.ceil(Math.log2(Math.max(1, size)));
}

// --- both families -------------------------------------------------------------------------------
// IPv6 addresses are handled as 32-digit hex strings (parsers/vfp/conditions.ts): fixed width, so string
// order is numeric order, and JSON-safe. Map keys use the canonical text (RFC 5952 for IPv6).

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

export { ipv6ToHex, hexToIpv6 };

/** An IPv6 prefix as an inclusive hex range. */
export function cidrRange6(c: string | undefined): { lo: string; hi: string; bits: number } | undefined {
  if (!c) return undefined;
  const [ip, bitsText] = c.trim().split('/');
  const base = ipv6ToHex(ip);
  const bits = bitsText === undefined ? 128 : Number(bitsText);
  if (base === undefined || !Number.isInteger(bits) || bits < 0 || bits > 128) return undefined;
  let lo = '';
  let hi = '';
  for (let i = 0; i < 32; i++) {
    const keep = Math.max(0, Math.min(4, bits - i * 4));
    const mask = (0xf << (4 - keep)) & 0xf;
    const v = parseInt(base[i], 16);
    lo += (v & mask).toString(16);
    hi += ((v & mask) | (~mask & 0xf)).toString(16);
  }
  return { lo, hi, bits };
}

/** Prefix length of an IPv6 hex range (exact for CIDR blocks). */
export function rangeBits6(lo: string, hi: string): number {
  let i = 0;
  while (i < 32 && lo[i] === hi[i]) i++;
  if (i === 32) return 128;
  const x = parseInt(lo[i], 16) ^ parseInt(hi[i], 16);
  return i * 4 + (x >= 8 ? 0 : x >= 4 ? 1 : x >= 2 ? 2 : 3);
}

/** Whether an address of either family lies in a printed prefix (`10.0.0.0/8`, `fd00::/64`). */
export function inCidr(ip: string, cidr: string): boolean {
  const n = ipToInt(ip);
  if (n !== undefined) {
    const c = cidrRange(cidr);
    return !!c && n >= c.lo && n <= c.hi;
  }
  const h = ipv6ToHex(ip);
  const c6 = h === undefined ? undefined : cidrRange6(cidr);
  return !!c6 && h! >= c6.lo && h! <= c6.hi;
}
