// What a VFP rule says it does, read from its printed rule data rather than from its type name.
//
// vfpctrl prints a rule's action as sentences and `key : value` lines after `Rule Data:` (or, for some
// types, without that header). The sentences map one to one onto the `/add-rule` data flags in
// vfpctrl's own usage text (vfpctrl 10.0.18362 `/?`: lbnat flags "MAC fixup, Decrement TTL, Modify
// destination IP, Modify destination port, Encap, Create flow"; nat flags "Source NAT, Dest NAT";
// routeencap flags "Fix Inner Mac, Use PA MAC, Decrement TTL"), and the printed spellings come from the
// dumps we have: the troubleshooting guide's lbnat, routeencap, `m encaps` and transposition rules,
// kubernetes/kubernetes#79359's dynnat (`Type : Source NAT; NAT pool : …`), microsoft/SDN VFP.psm1's
// paroute (`Using interface constraint with interface index: 11`). Words are matched by keyword, case- and
// spacing-insensitively, because the exact sentences of other builds are not published.
import { parsePortRanges } from './conditions.ts';
import { ipv4ToUint, ipv6ToHex } from '../net/ip.ts';
import { normKey, parseIntLoose } from './text-lines.ts';
import { COUNT, readInt } from '../text/numbers.ts';
import type { NumRange, VfpRule } from './types.ts';

export interface VfpRuleEffect {
  /** Fields the rule data says the rule rewrites. */
  rewrites: { srcIp: boolean; srcPort: boolean; dstIp: boolean; dstPort: boolean; srcMac: boolean; dstMac: boolean };
  /** `Creating a flow pair` (lbnat "Create flow"): the reverse direction is translated by the flow. */
  flowPair: boolean;
  /** `Source NAT` / `Dest NAT` as printed (the dynnat `Type :` detail line, or a sentence). */
  natKind?: 'source' | 'destination';
  /** The address the rule NATs to, when its data names one (`Source NAT IP`, `NAT IP`, `Source IP` inside the data, …). */
  natIp?: string;
  natPort?: number;
  natPortRange?: NumRange;
  natPool?: string;
  /** `Fixing MAC` / `Fixing inner MAC` (lbnat MAC fixup, routeencap Fix Inner Mac). */
  macFixup: boolean;
  decrementTtl: boolean;
  encapType?: string;
  encapVni?: number;
  encapSourceIp?: string;
  mapSpace?: string;
  /** `CA routing enabled` (mapencap flag 8192 "CA route"). */
  caRouting: boolean;
  /** paroute: `Using interface constraint with interface index: N`. */
  interfaceIndex?: number;
  /** paroute: `Using default compartment` → 'default', or the printed compartment id. */
  compartment?: string;
  vlan?: number;
  /** `Modify:` values (transposition): the fields and the values they are set to. */
  modify: { srcMac?: string; dstMac?: string; srcIp?: string; dstIp?: string; srcPort?: number; dstPort?: number };
  /** The data says the rule strips an encapsulation (decap, mapdecap, transposition decap). */
  decap: boolean;
  /** The rule printed any rule data at all (a rule with none leaves its effect to its type). */
  hasData: boolean;
  /** Data lines this reader did not understand (shown in the walk's notes). */
  unread: string[];
}

const cache = new WeakMap<VfpRule, VfpRuleEffect>();

const isIp = (v: string) => ipv4ToUint(v) !== undefined || ipv6ToHex(v) !== undefined;

/** First address-shaped token of a value (`10.224.0.35`, `10.0.0.4:1024`, `fd00::1`). */
function ipIn(value: string): string | undefined {
  for (const raw of value.split(/[\s,;{}()[\]]+/)) {
    if (raw === '') continue;
    if (isIp(raw)) return raw;
    const colon = raw.lastIndexOf(':');
    if (colon > 0 && ipv4ToUint(raw.slice(0, colon)) !== undefined) return raw.slice(0, colon);
  }
  return undefined;
}

function sentence(e: VfpRuleEffect, line: string): boolean {
  const t = line.toLowerCase().replace(/[\s_]+/g, ' ').trim();
  let known = false;
  const has = (w: string) => t.includes(w);
  if (has('modif')) {
    // "Modifying source IP", "Modifying destination port", "Modify source MAC"
    const src = has('source') || has(' src');
    const dst = has('destination') || has(' dest') || has(' dst');
    if (src || dst) {
      if (has(' ip')) e.rewrites[src ? 'srcIp' : 'dstIp'] = true;
      if (has('port')) e.rewrites[src ? 'srcPort' : 'dstPort'] = true;
      if (has('mac')) e.rewrites[src ? 'srcMac' : 'dstMac'] = true;
      known = true;
    }
  }
  if (has('flow pair') || has('create flow') || has('creating flow') || has('creating a flow')) {
    e.flowPair = true;
    known = true;
  }
  if (has('fixing') && has('mac')) {
    e.macFixup = true;
    e.rewrites.dstMac = true;
    known = true;
  }
  if (has('mac fixup')) {
    e.macFixup = true;
    e.rewrites.dstMac = true;
    known = true;
  }
  if (has('decrement') && has('ttl')) {
    e.decrementTtl = true;
    known = true;
  }
  if (has('source nat') || has('snat')) {
    e.natKind = 'source';
    known = true;
  } else if (has('dest nat') || has('destination nat') || has('dnat')) {
    e.natKind = 'destination';
    known = true;
  }
  if (has('ca rout')) {
    e.caRouting = true;
    known = true;
  }
  if (has('default compartment')) {
    e.compartment = 'default';
    known = true;
  }
  if (has('interface constraint') || has('interface index')) {
    // The number at the end, read backwards (/(\d+)\s*$/ retries from every digit of a long run).
    const u = t.trimEnd();
    let k = u.length;
    while (k > 0 && u.charCodeAt(k - 1) >= 48 && u.charCodeAt(k - 1) <= 57) k--;
    const index = k < u.length ? readInt(u.slice(k), COUNT).value : undefined;
    if (index !== undefined) e.interfaceIndex = index;
    known = true;
  }
  if (has('decap')) {
    e.decap = true;
    known = true;
  }
  if (has('using source pa mac') || has('pa mac') || has('cache pruning') || has('mss')) known = true;
  return known;
}

function keyValue(e: VfpRuleEffect, key: string, value: string): boolean {
  const k = normKey(key);
  const v = value.trim();
  switch (k) {
    case 'source nat ip':
    case 'nat ip':
    case 'nat address':
    case 'snat ip':
    case 'vip':
    case 'nat ip address': {
      const ip = ipIn(v);
      if (ip) e.natIp = ip;
      if (k.startsWith('source') || k.startsWith('snat')) e.natKind ??= 'source';
      return true;
    }
    // Inside a rule's data (not its conditions) `Source IP : x` names the address a nat rule writes
    // (the rewrite sentence next to it says which field).
    case 'source ip':
    case 'destination ip':
    case 'dest ip': {
      const ip = ipIn(v);
      if (ip) {
        e.natIp = ip;
        e.natKind ??= k === 'source ip' ? 'source' : 'destination';
      }
      return true;
    }
    case 'nat port':
    case 'port': {
      const n = parseIntLoose(v);
      if (n !== undefined && n >= 0 && n <= 65535) e.natPort = n;
      return true;
    }
    case 'range':
    case 'nat port range':
    case 'port range':
    case 'nat range': {
      const r = parsePortRanges(v)[0];
      if (r) e.natPortRange = r;
      return true;
    }
    case 'nat pool':
      e.natPool = v.split(/[\s;]+/)[0] || undefined;
      return true;
    case 'type': {
      // the dynnat detail line: `Source NAT;         NAT pool : <pool>`
      sentence(e, v);
      const i = v.toLowerCase().indexOf('nat pool');
      if (i >= 0) {
        const pool = v.slice(i + 8).replace(/^\s*:\s*/, '').trim().split(/[\s;]+/)[0];
        if (pool) e.natPool = pool;
      }
      return true;
    }
    case 'encap type':
      e.encapType = v.toUpperCase();
      return true;
    case 'gre key':
    case 'vni':
    case 'vsid':
    case 'tni':
    case 'key': {
      const n = parseIntLoose(v);
      if (n !== undefined) e.encapVni = n;
      return true;
    }
    case 'encap source ip':
      e.encapSourceIp = ipIn(v) ?? v;
      return true;
    case 'map space':
      e.mapSpace = v;
      return true;
    case 'vlan id': {
      const n = parseIntLoose(v);
      if (n !== undefined) e.vlan = n;
      return true;
    }
    case 'compartment':
    case 'compartment id':
      e.compartment = v;
      return true;
    case 'mss delta':
    case 'flow ttl':
    case 'cache pruning threshold':
    case 'cache pruning timeout':
    case 'count of dip ranges':
      return true;
    default:
      if (k.includes('interface constraint') || k.includes('interface index')) {
        const n = parseIntLoose(v);
        if (n !== undefined) e.interfaceIndex = n;
        return true;
      }
      return false;
  }
}

function modifyField(e: VfpRuleEffect, key: string, value: string): void {
  const k = normKey(key);
  const v = value.trim();
  const src = k.startsWith('source') || k.startsWith('src');
  const dst = k.startsWith('dest') || k.startsWith('dst');
  if (!src && !dst) return;
  if (k.includes('mac')) {
    e.modify[src ? 'srcMac' : 'dstMac'] = v;
    e.rewrites[src ? 'srcMac' : 'dstMac'] = true;
  } else if (k.includes('port')) {
    const n = parseIntLoose(v);
    if (n !== undefined) {
      e.modify[src ? 'srcPort' : 'dstPort'] = n;
      e.rewrites[src ? 'srcPort' : 'dstPort'] = true;
    }
  } else if (k.includes('ip') || k.includes('address')) {
    e.modify[src ? 'srcIp' : 'dstIp'] = v;
    e.rewrites[src ? 'srcIp' : 'dstIp'] = true;
  }
}

/** The effect a rule's printed data describes (cached per rule object). */
export function ruleEffect(rule: VfpRule): VfpRuleEffect {
  let e = cache.get(rule);
  if (e) return e;
  e = {
    rewrites: { srcIp: false, srcPort: false, dstIp: false, dstPort: false, srcMac: false, dstMac: false },
    flowPair: false,
    macFixup: false,
    decrementTtl: false,
    caRouting: false,
    modify: {},
    decap: false,
    hasData: false,
    unread: [],
  };
  for (const line of rule.ruleData) {
    e.hasData = true;
    const colon = line.indexOf(':');
    // A `key : value` line (the key has no address in it: IPv6 values contain colons too).
    if (colon > 0 && !isIp(line.slice(0, colon).trim()) && !line.trim().startsWith('{')) {
      const key = line.slice(0, colon);
      const value = line.slice(colon + 1);
      if (keyValue(e, key, value)) continue;
      if (sentence(e, line)) continue;
    } else if (sentence(e, line)) continue;
    if (line.trim() !== '' && !/^rule data:?$/i.test(line.trim())) e.unread.push(line.trim());
  }
  for (const [k, v] of Object.entries(rule.extra)) {
    if (keyValue(e, k, v)) e.hasData = true;
  }
  if (rule.typeDetail) {
    e.hasData = true;
    keyValue(e, 'Type', rule.typeDetail);
  }
  if (rule.natPool) e.natPool = rule.natPool;
  if (rule.encapType) e.encapType = rule.encapType.toUpperCase();
  if (rule.greKey !== undefined) e.encapVni = rule.greKey;
  if (rule.encapSourceIp) e.encapSourceIp = rule.encapSourceIp;
  if (rule.mapSpace) e.mapSpace = rule.mapSpace;
  for (const [k, v] of Object.entries(rule.modify)) {
    e.hasData = true;
    modifyField(e, k, v);
  }
  if (rule.dipRanges.length || rule.encapDestinations.length) e.hasData = true;
  cache.set(rule, e);
  return e;
}
