// Small address helpers shared by the ip/route parsers and the analysis layer. All are total:
// bad input yields null instead of throwing, because they run on text read from unknown nodes.

const IPV4_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

export function isIpv4(s: string): boolean {
  const m = IPV4_RE.exec(s);
  return m !== null && m.slice(1).every((o) => Number(o) <= 255);
}

/** Unsigned 32-bit integer of a dotted quad, or null. */
export function ipv4ToInt(s: string): number | null {
  const m = IPV4_RE.exec(s.trim());
  if (!m) return null;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const o = Number(m[i]);
    if (o > 255) return null;
    n = n * 256 + o;
  }
  return n;
}

export function intToIpv4(n: number): string | null {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) return null;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Prefix length of a contiguous dotted mask (255.255.255.0 → 24); null when not a valid mask. */
export function maskToPrefix(mask: string): number | null {
  const n = ipv4ToInt(mask);
  if (n === null) return null;
  let len = 0;
  while (len < 32 && ((n >>> (31 - len)) & 1) === 1) len++;
  // Every bit after the run of ones must be zero, otherwise the mask is not contiguous.
  const expected = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
  return n === expected ? len : null;
}

export function prefixToMask(prefix: number): string | null {
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 32) return null;
  return intToIpv4(prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);
}

export interface Cidr {
  family: 'ipv4' | 'ipv6';
  address: string;
  prefixLength: number;
  /** IPv4 only: network address as an unsigned integer and the first/last addresses covered. */
  network?: number;
  first?: string;
  last?: string;
}

/** Parses `a.b.c.d/n` or `x:y::/n` (also a bare address, taken as a host route). Null when malformed. */
export function parseCidr(s: string): Cidr | null {
  const t = s.trim();
  const slash = t.indexOf('/');
  const addr = slash < 0 ? t : t.slice(0, slash);
  const lenText = slash < 0 ? '' : t.slice(slash + 1);
  if (slash >= 0 && !/^\d{1,3}$/.test(lenText)) return null;
  if (isIpv4(addr)) {
    const prefixLength = slash < 0 ? 32 : Number(lenText);
    if (prefixLength > 32) return null;
    const ip = ipv4ToInt(addr) as number;
    const mask = prefixLength === 0 ? 0 : (0xffffffff << (32 - prefixLength)) >>> 0;
    const network = (ip & mask) >>> 0;
    const last = (network | (~mask >>> 0)) >>> 0;
    return { family: 'ipv4', address: addr, prefixLength, network, first: intToIpv4(network) ?? undefined, last: intToIpv4(last) ?? undefined };
  }
  if (isIpv6(addr)) {
    const prefixLength = slash < 0 ? 128 : Number(lenText);
    if (prefixLength > 128) return null;
    return { family: 'ipv6', address: addr, prefixLength };
  }
  return null;
}

/** Loose IPv6 shape check (hex groups, at most one `::`, optional embedded IPv4, optional %zone). */
export function isIpv6(s: string): boolean {
  const t = s.replace(/%[\w.-]+$/, '');
  if (!/^[0-9a-fA-F:.]+$/.test(t) || !t.includes(':')) return false;
  const dbl = t.split('::').length - 1;
  if (dbl > 1) return false;
  const groups = t.split(':').filter((g) => g !== '');
  const last = groups[groups.length - 1] ?? '';
  const hasV4 = last.includes('.');
  if (hasV4 && !isIpv4(last)) return false;
  const hexGroups = hasV4 ? groups.slice(0, -1) : groups;
  if (!hexGroups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  const count = hexGroups.length + (hasV4 ? 2 : 0);
  return dbl === 1 ? count < 8 : count === 8;
}

/** True when the IPv4 address lies in 169.254.0.0/16 (APIPA: DHCP failed or no address yet). */
export function isApipa(s: string): boolean {
  return /^169\.254\.\d{1,3}\.\d{1,3}$/.test(s.trim());
}

/** `00 15 5d e1 56 f4`, `00:15:5D:E1:56:F4`, `00155de156f4` → `00-15-5D-E1-56-F4`; null if not a MAC. */
export function normalizeMac(s: string): string | null {
  const t = s.trim();
  let bytes: string[];
  if (/^[0-9a-fA-F]{2}([-: ][0-9a-fA-F]{2}){5,7}$/.test(t)) bytes = t.split(/[-: ]/);
  else if (/^[0-9a-fA-F]{12}$/.test(t)) bytes = t.match(/../g) ?? [];
  else return null;
  return bytes.map((b) => b.toUpperCase()).join('-');
}
