// Decodes vfpctrl condition values (IP ranges, ports, protocols, MACs) into numbers the trace engine can
// compare. The printed value is always kept too, because vfpctrl's spellings are only partly documented.
import type { Ip6Range, NumRange, VfpCondition, VfpConditionKind } from './types.ts';
import { looksNumeric, PORT, PREFIX_V4, PREFIX_V6, PROTOCOL, readInt } from '../text/numbers.ts';

/** Told why a token that holds a number or an address was not read (the caller names the line). */
export type Refuse = (why: string) => void;
const ignore: Refuse = () => undefined;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

export function ipv4ToUint(s: string): number | undefined {
  const m = IPV4.exec(s);
  if (!m) return undefined;
  const a = +m[1], b = +m[2], c = +m[3], d = +m[4];
  if (a > 255 || b > 255 || c > 255 || d > 255) return undefined;
  return a * 16777216 + b * 65536 + c * 256 + d;
}

export function uintToIpv4(n: number): string {
  return `${Math.floor(n / 16777216) % 256}.${Math.floor(n / 65536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`;
}

/** The seed shows `10_244_3_0-10_244_3_255`: dots printed as underscores in some builds/renderings. */
function undoUnderscores(tok: string): string {
  return /^[\d_./-]+$/.test(tok) && /\d_\d/.test(tok) ? tok.replace(/_/g, '.') : tok;
}

/** Splits a list value into tokens; `a - b` is glued into `a-b` first. */
function tokens(value: string): string[] {
  // Blanks around each '-' removed by splitting on it: /\s*-\s*/g is quadratic in a long run of
  // blanks not followed by '-', which a hostile dump has.
  const glued = value.includes('-') ? value.split('-').map((p, i, all) => (i === 0 ? p.trimEnd() : i === all.length - 1 ? p.trimStart() : p.trim())).join('-') : value;
  return glued
    .split(/[\s,;]+/)
    .map((t) => t.replace(/^[[{(]+|[\]})]+$/g, ''))
    .filter((t) => t !== '');
}

/**
 * An IPv6 address (RFC 4291 text forms: `::` compression, an embedded dotted IPv4 tail, a `%zone` suffix)
 * as 32 lower-case hex digits, or undefined. Fixed width, so comparing two results as strings compares
 * the addresses; JSON-safe, unlike bigint.
 */
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

/** RFC 5952 text of a 32-digit hex IPv6 address (longest run of zero groups compressed). */
export function hexToIpv6(hex: string): string {
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

/** Adds (or with `set` false clears) the low `bits` bits of a 32-digit hex address. */
function fillLowBits(hex: string, bits: number, set: boolean): string {
  let out = '';
  for (let i = 0; i < 32; i++) {
    const nibbleLowBits = Math.max(0, Math.min(4, bits - (31 - i) * 4));
    const v = parseInt(hex[i], 16);
    const mask = (1 << nibbleLowBits) - 1;
    out += (set ? v | mask : v & ~mask & 15).toString(16);
  }
  return out;
}

/** IPv6 tokens of a condition value: `fd00::1`, `fd00::/64`, `fd00::1-fd00::ff`, `::/0`. */
export function parseIpv6Ranges(value: string, refuse: Refuse = ignore): Ip6Range[] {
  const out: Ip6Range[] = [];
  for (const tok of tokens(value)) {
    if (!tok.includes(':')) continue;
    const slash = tok.indexOf('/');
    if (slash > 0) {
      const base = ipv6ToHex(tok.slice(0, slash));
      const len = readInt(tok.slice(slash + 1), PREFIX_V6);
      if (base !== undefined && len.problem) refuse(`${tok}: the prefix length ${len.problem}`);
      if (base === undefined || len.value === undefined) continue;
      const bits = len.value;
      out.push({ lo: fillLowBits(base, 128 - bits, false), hi: fillLowBits(base, 128 - bits, true) });
      continue;
    }
    const dash = tok.indexOf('-');
    if (dash > 0) {
      const lo = ipv6ToHex(tok.slice(0, dash));
      const hi = ipv6ToHex(tok.slice(dash + 1));
      if (lo === undefined || hi === undefined) continue;
      out.push(lo <= hi ? { lo, hi } : { lo: hi, hi: lo });
      continue;
    }
    const one = ipv6ToHex(tok);
    if (one !== undefined) out.push({ lo: one, hi: one });
  }
  return out;
}

/** A dotted run that is meant as an IPv4 address (four numbers), whether or not each is an octet. */
const DOTTED4 = /^\d{1,10}(\.\d{1,10}){3}$/;

export function parseIpv4Ranges(value: string, refuse: Refuse = ignore): NumRange[] {
  const out: NumRange[] = [];
  const addr = (text: string): number | undefined => {
    const v = ipv4ToUint(text);
    if (v === undefined && DOTTED4.test(text)) refuse(`${text} is not an IPv4 address (each of its four numbers is at most 255)`);
    return v;
  };
  for (const raw of tokens(value)) {
    const tok = undoUnderscores(raw);
    const slash = tok.indexOf('/');
    if (slash > 0) {
      const base = addr(tok.slice(0, slash));
      const len = readInt(tok.slice(slash + 1), PREFIX_V4);
      if (base !== undefined && len.problem) refuse(`${tok}: the prefix length ${len.problem}`);
      if (base === undefined || len.value === undefined) continue;
      const bits = len.value;
      const size = 2 ** (32 - bits);
      const lo = base - (base % size);
      out.push({ lo, hi: lo + size - 1 });
      continue;
    }
    const dash = tok.indexOf('-');
    if (dash > 0) {
      const lo = addr(tok.slice(0, dash));
      const hi = addr(tok.slice(dash + 1));
      if (lo === undefined || hi === undefined) continue;
      out.push(lo <= hi ? { lo, hi } : { lo: hi, hi: lo });
      continue;
    }
    const one = addr(tok);
    if (one !== undefined) out.push({ lo: one, hi: one });
  }
  return out;
}

export function parsePortRanges(value: string, refuse: Refuse = ignore): NumRange[] {
  const out: NumRange[] = [];
  for (const tok of tokens(value)) {
    // `a-b`, split at the dash between the two numbers (a leading `-` is a sign, refused below).
    const dash = tok.indexOf('-', 1);
    const parts = dash > 0 ? [tok.slice(0, dash), tok.slice(dash + 1)] : [tok];
    if (!parts.some(looksNumeric)) continue;
    const [a, b] = parts.map((p) => readInt(p, PORT));
    const bad = [a, b].find((x) => x?.problem);
    if (bad?.problem || a.value === undefined) {
      refuse(`port ${tok}: ${bad?.problem ?? 'not a port'}`);
      continue;
    }
    const hi = b?.value ?? a.value;
    out.push(a.value <= hi ? { lo: a.value, hi } : { lo: hi, hi: a.value });
  }
  return out;
}

const PROTO_NAMES: Record<string, number> = { icmp: 1, igmp: 2, tcp: 6, udp: 17, gre: 47, esp: 50, ah: 51, icmpv6: 58 };

export function parseProtocols(value: string, refuse: Refuse = ignore): number[] {
  const out: number[] = [];
  for (const tok of tokens(value)) {
    if (PROTO_NAMES[tok.toLowerCase()] !== undefined) out.push(PROTO_NAMES[tok.toLowerCase()]);
    else if (looksNumeric(tok)) {
      const n = readInt(tok, PROTOCOL);
      if (n.value !== undefined) out.push(n.value);
      else refuse(`protocol ${n.problem}`);
    }
  }
  return out;
}

const MAC = /^[0-9a-f]{2}([-:.]?)[0-9a-f]{2}(?:\1[0-9a-f]{2}){4}$/i;

export function normMac(tok: string): string | undefined {
  if (!MAC.test(tok)) return undefined;
  const hex = tok.replace(/[-:.]/g, '').toUpperCase();
  return hex.match(/../g)!.join('-');
}

export function parseMacs(value: string): string[] {
  const out: string[] = [];
  for (const tok of tokens(value)) {
    const m = normMac(tok);
    if (m) out.push(m);
  }
  return out;
}

export function conditionKind(key: string): VfpConditionKind {
  const k = key.toLowerCase().replace(/\s+/g, ' ').trim();
  if (/^protocols?\b/.test(k)) return 'protocols';
  if (/vlan/.test(k)) return 'vlan';
  const src = /^(source|src)\b/.test(k);
  const dst = /^(destination|dest|dst)\b/.test(k);
  if (!src && !dst) return 'other';
  if (/\bmac\b/.test(k)) return src ? 'srcMac' : 'dstMac';
  if (/\bports?\b/.test(k)) return src ? 'srcPort' : 'dstPort';
  if (/\bip(v4|v6)?s?\b|\baddress/.test(k)) return src ? 'srcIp' : 'dstIp';
  return 'other';
}

export function makeCondition(key: string, value: string, refuse: Refuse = ignore): VfpCondition {
  const kind = conditionKind(key);
  const c: VfpCondition = { key, value, kind };
  switch (kind) {
    case 'srcIp':
    case 'dstIp': {
      const r = parseIpv4Ranges(value, refuse);
      if (r.length) c.ipRanges = r;
      if (value.includes(':')) {
        const r6 = parseIpv6Ranges(value, refuse);
        if (r6.length) c.ip6Ranges = r6;
      }
      break;
    }
    case 'srcPort':
    case 'dstPort': {
      const r = parsePortRanges(value, refuse);
      if (r.length) c.ports = r;
      break;
    }
    case 'protocols': {
      const p = parseProtocols(value, refuse);
      if (p.length) c.protocols = p;
      break;
    }
    case 'srcMac':
    case 'dstMac': {
      const m = parseMacs(value);
      if (m.length) c.macs = m;
      break;
    }
    default:
      break;
  }
  return c;
}
