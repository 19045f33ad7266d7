// Two per-port vfpctrl listings the packet walk consults: `/list-nat-range` (the addresses and ports a
// dynnat rule's NAT pool hands out) and `/list-mapping` (the CA → PA mappings a map-based encap rule
// looks up). dumpVfpPolicies.ps1 collects both for every port (before and after its 2023 change), but
// no printed sample of either has been published (see ARCHITECTURE.md, "The packet walk"): the readers
// below take any layout that carries the documented fields — ETW's V4DepositNatRange "{range type,
// addr, start port, end port}" and AddMapping "{ca, pa, mac addr, isolation id}" (microsoft/SDN
// etl_vfpext.npl), and `/add-mapping "[pa] [ca] [pamac] …"`'s argument order (vfpctrl `/?`) for a
// line without labels. Every entry keeps its line so the walk can cite it.
import { parsePortRanges } from './conditions.ts';
import { normalizeMac as normMac } from '../net/mac.ts';
import { ipv4ToUint, ipv6ToHex } from '../net/ip.ts';
import { normKey, parseIntLoose } from './text-lines.ts';
import type { VfpPortPolicy } from './types.ts';

export interface VfpNatRange {
  pool?: string;
  ip: string;
  portLo?: number;
  portHi?: number;
  /** 1-based index of the line in the port's list-nat-range output (the section keeps no file lines). */
  entry: number;
}

export interface VfpMapping {
  ca: string;
  pa: string;
  mac?: string;
  vni?: number;
  /** Read from an unlabelled line by `/add-mapping`'s argument order ([pa] [ca]). */
  byOrder?: boolean;
  entry: number;
  /** Line of the `/list-mapping` section in the file. */
  sectionLine?: number;
}

const isIp = (v: string) => ipv4ToUint(v) !== undefined || ipv6ToHex(v) !== undefined;

function ipsIn(s: string): string[] {
  const out: string[] = [];
  for (const raw of s.split(/[\s,;{}()[\]=]+/)) {
    if (raw === '') continue;
    if (isIp(raw)) out.push(raw);
    else {
      const c = raw.lastIndexOf(':');
      if (c > 0 && ipv4ToUint(raw.slice(0, c)) !== undefined) out.push(raw.slice(0, c));
    }
  }
  return out;
}

/** `key = value, key = value` or `key : value` pairs of one line (IPv6 values keep their colons). */
function pairs(line: string): [string, string][] {
  const out: [string, string][] = [];
  const body = line.replace(/^[{\s]+|[}\s]+$/g, '');
  for (const part of body.split(',')) {
    let sep = part.indexOf('=');
    let len = 1;
    if (sep < 0) {
      sep = part.indexOf(' : ');
      len = 3;
    }
    if (sep < 0) {
      sep = part.indexOf(':');
      len = 1;
    }
    if (sep <= 0) continue;
    const k = part.slice(0, sep).trim();
    if (k === '' || isIp(k)) continue;
    out.push([normKey(k), part.slice(sep + len).trim()]);
  }
  return out;
}

const cacheNat = new WeakMap<VfpPortPolicy, VfpNatRange[]>();

export function natRangesOf(policy: VfpPortPolicy): VfpNatRange[] {
  let r = cacheNat.get(policy);
  if (r) return r;
  r = [];
  let pool: string | undefined;
  let cur: VfpNatRange | undefined;
  policy.natRanges.forEach((line, i) => {
    if (/^(item list|=+|command .* succeeded!?)$/i.test(line.trim())) return;
    for (const [k, v] of pairs(line)) {
      if (k.includes('pool') && !isIp(v)) {
        if (cur) r!.push(cur);
        cur = undefined;
        pool = v.split(/[\s;]+/)[0] || undefined;
      }
    }
    if (!pool && /natpool/i.test(line)) {
      const tok = line.split(/[\s:;,]+/).find((t) => /natpool/i.test(t));
      if (tok) pool = tok;
    }
    const [ip] = ipsIn(line.replace(/natpool\S*/gi, ''));
    if (ip !== undefined) {
      if (cur) r!.push(cur);
      cur = { pool, ip, entry: i + 1 };
    }
    if (!cur) return;
    for (const [k, v] of pairs(line)) {
      const n = parseIntLoose(v);
      if (n === undefined) continue;
      if (k.includes('start')) cur.portLo = n;
      else if (k.includes('end')) cur.portHi = n;
    }
    if (cur.portLo === undefined) {
      const range = parsePortRanges(line.replace(/\d+\.\d+\.\d+\.\d+/g, ' ').replace(/[^\d\s-]/g, ' ')).find((x) => x.hi > x.lo);
      if (range) {
        cur.portLo = range.lo;
        cur.portHi = range.hi;
      }
    }
  });
  if (cur) r.push(cur);
  cacheNat.set(policy, r);
  return r;
}

const cacheMap = new WeakMap<VfpPortPolicy, VfpMapping[]>();

export function mappingsOf(policy: VfpPortPolicy): VfpMapping[] {
  let out = cacheMap.get(policy);
  if (out) return out;
  out = [];
  for (const s of policy.otherSections) {
    if (s.command !== 'list-mapping') continue;
    let cur: Partial<VfpMapping> = {};
    const flush = () => {
      if (cur.ca && cur.pa) out!.push({ ...cur, entry: out!.length + 1, sectionLine: s.line } as VfpMapping);
      cur = {};
    };
    for (const line of s.lines) {
      if (/^(item list|=+|command .* succeeded!?)$/i.test(line.trim())) continue;
      const ps = pairs(line);
      let labelled = false;
      for (const [k, v] of ps) {
        const ip = ipsIn(v)[0];
        let field: keyof VfpMapping | undefined;
        if ((k === 'ca' || k.startsWith('customer') || k.startsWith('ca ')) && !k.includes('mac')) field = 'ca';
        else if ((k === 'pa' || k.startsWith('provider') || k.startsWith('pa ')) && !k.includes('mac')) field = 'pa';
        else if (k.includes('mac') && !k.includes('customer') && !k.startsWith('ca')) field = 'mac';
        else if (k.includes('isolation') || k === 'vni' || k === 'tni' || k === 'vsid' || k.includes('key')) field = 'vni';
        if (!field) continue;
        labelled = true;
        if (cur[field] !== undefined) flush();
        if (field === 'ca' || field === 'pa') {
          if (ip) cur[field] = ip;
        } else if (field === 'mac') cur.mac = normMac(v) ?? v;
        else {
          const n = parseIntLoose(v);
          if (n !== undefined) cur.vni = n;
        }
      }
      if (!labelled) {
        const [pa, ca] = ipsIn(line);
        if (pa !== undefined && ca !== undefined) {
          flush();
          const mac = line.split(/\s+/).map((t) => normMac(t)).find(Boolean);
          out.push({ pa, ca, mac, byOrder: true, entry: out.length + 1, sectionLine: s.line });
        }
      }
    }
    flush();
  }
  cacheMap.set(policy, out);
  return out;
}
