// IPv6 arithmetic. An address is held as 32 lower-case hex digits: fixed width, so comparing two as
// strings compares the addresses, and JSON-safe, unlike bigint. Text forms read: RFC 4291 §2.2 (`::`
// compression, a dotted IPv4 tail, a `%zone` suffix), and `[…]` brackets; printed: RFC 5952 (§4 zero
// compression, §5 IPv4-mapped addresses with a dotted tail). Total; pure.
import { ipv4ToUint, uintToIpv4 } from './ip4.ts';

/** The address `s` spells (blanks around it ignored) as 32 hex digits, or undefined. */
export function ipv6ToHex(s: string): string | undefined {
  let t = s.trim();
  const pct = t.indexOf('%');
  if (pct >= 0) t = t.slice(0, pct);
  if (t.startsWith('[') && t.endsWith(']')) t = t.slice(1, -1);
  if (t.length < 2 || t.length > 45 || !t.includes(':') || !/^[0-9a-fA-F:.]+$/.test(t)) return undefined;
  const lastColon = t.lastIndexOf(':');
  if (t.indexOf('.', lastColon) > 0) {
    // An embedded IPv4 tail (`::ffff:10.0.0.1`) is two hex groups.
    const v4 = ipv4ToUint(t.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    t = `${t.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const dbl = t.indexOf('::');
  if (dbl >= 0 && t.indexOf('::', dbl + 1) >= 0) return undefined;
  const split = (x: string) => (x === '' ? [] : x.split(':'));
  let groups: string[];
  if (dbl >= 0) {
    const head = split(t.slice(0, dbl));
    const rest = split(t.slice(dbl + 2));
    const fill = 8 - head.length - rest.length;
    if (fill < 1) return undefined;
    groups = [...head, ...Array<string>(fill).fill('0'), ...rest];
  } else {
    groups = split(t);
  }
  if (groups.length !== 8) return undefined;
  let out = '';
  for (const g of groups) {
    if (g.length < 1 || g.length > 4 || !/^[0-9a-fA-F]+$/.test(g)) return undefined;
    out += g.toLowerCase().padStart(4, '0');
  }
  return out;
}

/** Whether `s` is exactly an IPv6 address: no blanks or brackets around it; a zone, if any, is a word. */
export function isIpv6(s: string): boolean {
  const pct = s.indexOf('%');
  if (pct >= 0 && !/^%[\w.-]+$/.test(s.slice(pct))) return false;
  return s === s.trim() && !s.startsWith('[') && ipv6ToHex(s) !== undefined;
}

const V4_MAPPED = '00000000000000000000ffff';

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:0:0/96`, RFC 4291 §2.5.5.2) carries, as a uint32. */
export function mappedIpv4(hex: string): number | undefined {
  return hex.length === 32 && hex.startsWith(V4_MAPPED) ? parseInt(hex.slice(24), 16) : undefined;
}

/** RFC 5952 text of a 32-digit hex IPv6 address (longest run of zero groups compressed). */
export function hexToIpv6(hex: string): string {
  const v4 = mappedIpv4(hex);
  if (v4 !== undefined) return `::ffff:${uintToIpv4(v4)}`;
  const groups: string[] = [];
  for (let i = 0; i < 32; i += 4) groups.push(hex.slice(i, i + 4).replace(/^0+(?=.)/, ''));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

/** Sets (or with `set` false clears) the low `bits` bits of a 32-digit hex address. */
function fillLowBits(hex: string, bits: number, set: boolean): string {
  let out = '';
  for (let i = 0; i < 32; i++) {
    const nibbleLowBits = Math.max(0, Math.min(4, bits - (31 - i) * 4));
    const v = parseInt(hex.charAt(i), 16);
    const mask = (1 << nibbleLowBits) - 1;
    out += (set ? v | mask : v & ~mask & 15).toString(16);
  }
  return out;
}

/** The inclusive range of a prefix: its first and last addresses as hex. */
export function ipv6PrefixRange(hex: string, bits: number): { lo: string; hi: string } {
  return { lo: fillLowBits(hex, 128 - bits, false), hi: fillLowBits(hex, 128 - bits, true) };
}

/** Prefix length of a hex range (exact for a prefix's range; for any other range, that of the smallest
 *  prefix holding its first differing bit). */
export function rangeBits6(lo: string, hi: string): number {
  let i = 0;
  while (i < 32 && lo[i] === hi[i]) i++;
  if (i === 32) return 128;
  const x = parseInt(lo.charAt(i), 16) ^ parseInt(hi.charAt(i), 16);
  return i * 4 + (x >= 8 ? 0 : x >= 4 ? 1 : x >= 2 ? 2 : 3);
}
