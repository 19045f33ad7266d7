// IPv4 arithmetic: a dotted quad as an unsigned 32-bit integer and back, masks and prefix lengths.
// Total: bad input yields undefined/null instead of throwing, because the text comes from unknown nodes.
// Each of the four numbers is 1–3 digits and at most 255 (the OCTET range of ../text/numbers.ts); no
// sign, exponent, hex or blank inside. Pure; imports nothing but the number rules.
import { OCTET } from '../text/numbers.ts';

const IPV4_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The address the text is exactly (no blanks around it), as an unsigned 32-bit integer; undefined otherwise. */
export function ipv4ToUint(s: string): number | undefined {
  const m = IPV4_RE.exec(s);
  if (!m) return undefined;
  // The pattern already holds the number rules (1–3 plain digits: no sign, exponent, point or hex);
  // what is left is the OCTET range. Plain arithmetic: the walk calls this for every hop.
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const digits = m[i];
    if (digits === undefined) return undefined;
    const o = +digits;
    if (o > OCTET.max) return undefined;
    n = n * 256 + o;
  }
  return n;
}

export function isIpv4(s: string): boolean {
  return ipv4ToUint(s) !== undefined;
}

/** Unsigned 32-bit integer of a dotted quad (blanks around it ignored), or null. */
export function ipv4ToInt(s: string): number | null {
  return ipv4ToUint(s.trim()) ?? null;
}

export function intToIpv4(n: number): string | null {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) return null;
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** Dotted text of a number read as an IPv4 address: a uint32 prints as itself; anything else modulo 2^32
 *  per octet (vfpctrl's JSON range bounds are printed as they come, never refused here). */
export function uintToIpv4(n: number): string {
  return intToIpv4(n) ?? `${Math.floor(n / 16777216) % 256}.${Math.floor(n / 65536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`;
}

/** The network mask of a prefix length as a uint32 (24 → 0xffffff00); 0 for /0. */
export function prefixMaskUint(bits: number): number {
  return bits <= 0 ? 0 : bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
}

/** Prefix length of a contiguous dotted mask (255.255.255.0 → 24); null when not a valid mask. */
export function maskToPrefix(mask: string): number | null {
  const n = ipv4ToInt(mask);
  if (n === null) return null;
  let len = 0;
  while (len < 32 && ((n >>> (31 - len)) & 1) === 1) len++;
  // Every bit after the run of ones must be zero, otherwise the mask is not contiguous.
  return n === prefixMaskUint(len) ? len : null;
}

export function prefixToMask(prefix: number): string | null {
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 32) return null;
  return intToIpv4(prefixMaskUint(prefix));
}

/** The inclusive range of a prefix: its network address and its last address. */
export function ipv4PrefixRange(base: number, bits: number): { lo: number; hi: number } {
  const mask = prefixMaskUint(bits);
  const lo = (base & mask) >>> 0;
  return { lo, hi: (lo | (~mask >>> 0)) >>> 0 };
}

/** True when the IPv4 address lies in 169.254.0.0/16 (APIPA: DHCP failed or no address yet). */
export function isApipa(s: string): boolean {
  return /^169\.254\.\d{1,3}\.\d{1,3}$/.test(s.trim());
}
