// Decodes vfpctrl condition values (IP ranges, ports, protocols, MACs) into numbers the trace engine can
// compare. The printed value is always kept too, because vfpctrl's spellings are only partly documented.
import type { Ip6Range, NumRange, VfpCondition, VfpConditionKind } from './types.ts';
import { looksNumeric, PORT, PREFIX_V4, PREFIX_V6, PROTOCOL, readInt } from '../text/numbers.ts';
import { ipv4PrefixRange, ipv4ToUint, ipv6PrefixRange, ipv6ToHex, normalizeMac } from '../net/ip.ts';

/** Told why a token that holds a number or an address was not read (the caller names the line). */
export type Refuse = (why: string) => void;
const ignore: Refuse = () => undefined;

/** The seed shows `10_244_3_0-10_244_3_255`: dots printed as underscores in some builds/renderings. */
function undoUnderscores(tok: string): string {
  return /^[\d_./-]+$/.test(tok) && /\d_\d/.test(tok) ? tok.replace(/_/g, '.') : tok;
}

/** Splits a list value into tokens; `a - b` is glued into `a-b` first. */
function tokens(value: string): string[] {
  if (oneToken(value)) return [value];
  // Blanks around each '-' removed by splitting on it: /\s*-\s*/g is quadratic in a long run of
  // blanks not followed by '-', which a hostile dump has.
  const glued = value.includes('-') ? value.split('-').map((p, i, all) => (i === 0 ? p.trimEnd() : i === all.length - 1 ? p.trimStart() : p.trim())).join('-') : value;
  return glued
    .split(/[\s,;]+/)
    .map((t) => t.replace(/^[[{(]+|[\]})]+$/g, ''))
    .filter((t) => t !== '');
}

/** A value of ASCII letters, digits, `.`, `:`, `/` and `_` only (`10.98.215.11`, `6`, `fd00::/64`): no
 *  blank, separator, dash or bracket, so tokens() would give the value itself. Most conditions are one. */
function oneToken(value: string): boolean {
  if (value === '') return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const ok = (c >= 48 && c <= 58) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 46 || c === 47 || c === 95;
    if (!ok) return false;
  }
  return true;
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
      out.push(ipv6PrefixRange(base, len.value));
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
      out.push(ipv4PrefixRange(base, len.value));
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
    if (bad?.problem || a?.value === undefined) {
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
    // Own keys only: `constructor` or `toString` in a dump is no protocol name.
    const name = tok.toLowerCase();
    const known = Object.hasOwn(PROTO_NAMES, name) ? PROTO_NAMES[name] : undefined;
    if (known !== undefined) out.push(known);
    else if (looksNumeric(tok)) {
      const n = readInt(tok, PROTOCOL);
      if (n.value !== undefined) out.push(n.value);
      else refuse(`protocol ${n.problem}`);
    }
  }
  return out;
}

export function parseMacs(value: string): string[] {
  const out: string[] = [];
  for (const tok of tokens(value)) {
    const m = normalizeMac(tok);
    if (m) out.push(m);
  }
  return out;
}

/** A dump spells its condition keys a few dozen ways over a million rules: each is read once. Bounded
 *  (cleared when full) so a hostile dump of distinct keys costs no more memory than this. */
const KIND_CACHE_MAX = 1024;
const kinds = new Map<string, VfpConditionKind>();

export function conditionKind(key: string): VfpConditionKind {
  let kind = kinds.get(key);
  if (kind === undefined) {
    kind = kindOf(key);
    if (kinds.size >= KIND_CACHE_MAX) kinds.clear();
    kinds.set(key, kind);
  }
  return kind;
}

function kindOf(key: string): VfpConditionKind {
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
