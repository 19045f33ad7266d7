// Which rule of a VFP group a packet matches. A group selects by priority (lowest number wins) or,
// for "Longest prefix match" groups, by the most specific destination range (priority breaks ties).
// Two rules of the same rank that both match are reported: which one a real node applies is not
// defined anywhere. Groups are compiled once into an index by exact destination address so a group
// of thousands of load-balancer rules answers in constant time.
import { spend } from '../budget.ts';
import type { VfpCondition, VfpGroup, VfpRule } from '../../parsers/vfp/index.ts';
import { ruleEffect } from '../../parsers/vfp/index.ts';
import type { MatchedCondition, Packet, SkippedRule } from './types.ts';
import { ipToInt, ipv6ToHex, rangeBits, rangeBits6 } from './ip.ts';

/** IANA protocol numbers; ICMP on IPv6 is ICMPv6 (58). */
export function protoNumber(p: Packet): number {
  if (p.proto === 'tcp') return 6;
  if (p.proto === 'udp') return 17;
  return p.srcIp.includes(':') ? 58 : 1;
}

export type CondResult = 'match' | 'miss' | 'unknown';

export interface CondCheck {
  result: CondResult;
  /** The condition that failed or could not be evaluated. */
  why?: string;
}

function ipCheck(c: VfpCondition, ip: string, side: string): CondCheck {
  const v4 = ipToInt(ip);
  if (v4 !== undefined) {
    if (c.ipRanges?.length) return c.ipRanges.some((r) => v4 >= r.lo && v4 <= r.hi) ? { result: 'match' } : { result: 'miss', why: `${side} ${ip} ∉ ${c.value}` };
    if (c.ip6Ranges?.length) return { result: 'miss', why: `${side} ${ip} is IPv4, ${c.value} is IPv6` };
    return { result: 'unknown', why: `${c.key} : ${c.value} not understood` };
  }
  const v6 = ipv6ToHex(ip);
  if (v6 !== undefined) {
    if (c.ip6Ranges?.length) return c.ip6Ranges.some((r) => v6 >= r.lo && v6 <= r.hi) ? { result: 'match' } : { result: 'miss', why: `${side} ${ip} ∉ ${c.value}` };
    if (c.ipRanges?.length) return { result: 'miss', why: `${side} ${ip} is IPv6, ${c.value} is IPv4` };
  }
  return { result: 'unknown', why: `${c.key} : ${c.value} not understood` };
}

export function checkCondition(c: VfpCondition, p: Packet): CondCheck {
  switch (c.kind) {
    case 'protocols': {
      if (!c.protocols?.length) return { result: 'unknown', why: `${c.key} : ${c.value} not understood` };
      const n = protoNumber(p);
      return c.protocols.includes(n) ? { result: 'match' } : { result: 'miss', why: `protocol ${n} ∉ ${c.value}` };
    }
    case 'srcIp':
      return ipCheck(c, p.srcIp, 'source');
    case 'dstIp':
      return ipCheck(c, p.dstIp, 'destination');
    case 'srcPort':
    case 'dstPort': {
      const port = c.kind === 'srcPort' ? p.srcPort : p.dstPort;
      const side = c.kind === 'srcPort' ? 'source' : 'destination';
      if (!c.ports?.length) return { result: 'unknown', why: `${c.key} : ${c.value} not understood` };
      // ICMP has no ports: a port condition cannot match it.
      if (port === undefined) return p.proto === 'icmp' ? { result: 'miss', why: `ICMP has no ${side} port (${c.value})` } : { result: 'unknown', why: `the flow has no ${side} port to compare with ${c.value}` };
      return c.ports.some((r) => port >= r.lo && port <= r.hi) ? { result: 'match' } : { result: 'miss', why: `${side} port ${port} ∉ ${c.value}` };
    }
    case 'srcMac':
    case 'dstMac': {
      const mac = c.kind === 'srcMac' ? p.srcMac : p.dstMac;
      if (!c.macs?.length) return { result: 'unknown', why: `${c.key} : ${c.value} not understood` };
      if (!mac) return { result: 'unknown', why: `the packet's ${c.kind === 'srcMac' ? 'source' : 'destination'} MAC is not known from the bundle` };
      return c.macs.includes(mac.toUpperCase()) ? { result: 'match' } : { result: 'miss', why: `${c.kind === 'srcMac' ? 'source' : 'destination'} MAC ${mac} ∉ ${c.value}` };
    }
    default:
      return { result: 'unknown', why: `condition "${c.key} : ${c.value}" is not modelled` };
  }
}

const FIELD: Record<VfpCondition['kind'], string> = {
  protocols: 'protocol',
  srcIp: 'source IP',
  dstIp: 'destination IP',
  srcPort: 'source port',
  dstPort: 'destination port',
  srcMac: 'source MAC',
  dstMac: 'destination MAC',
  vlan: 'VLAN',
  other: '',
};
const PROTO_NAMES: Record<number, string> = { 1: 'ICMP', 6: 'TCP', 17: 'UDP', 58: 'ICMPv6' };

/** The packet's value a condition is compared with, in words (`(none)` when the packet has none). */
function packetValue(c: VfpCondition, p: Packet): string {
  switch (c.kind) {
    case 'protocols': {
      const n = protoNumber(p);
      return `${n} (${PROTO_NAMES[n]})`;
    }
    case 'srcIp':
      return p.srcIp;
    case 'dstIp':
      return p.dstIp;
    case 'srcPort':
      return p.srcPort === undefined ? '(none)' : String(p.srcPort);
    case 'dstPort':
      return p.dstPort === undefined ? '(none)' : String(p.dstPort);
    case 'srcMac':
      return p.srcMac ?? '(not in the bundle)';
    case 'dstMac':
      return p.dstMac ?? '(not in the bundle)';
    default:
      return '(not modelled)';
  }
}

/**
 * Why a rule (or group) that matched did: each of its conditions against the packet's value, judged by
 * the same `checkCondition` that says why other rules did not match. An empty list: the rule has no
 * condition and matches every packet.
 */
export function explainMatch(conds: VfpCondition[], p: Packet): MatchedCondition[] {
  return conds.map((c) => {
    const r = checkCondition(c, p);
    // A matched rule has no missed condition; should one appear, it is not evaluable here either.
    return { field: FIELD[c.kind] || c.key, value: packetValue(c, p), condition: c.value, result: r.result === 'match' ? 'match' : 'unknown' };
  });
}

/**
 * `checkCondition`'s result without its words (no string is built): the hot path of rule selection,
 * where most conditions miss and their "why" is never read. Must give exactly checkCondition's result.
 */
export function conditionResult(c: VfpCondition, p: Packet): CondResult {
  switch (c.kind) {
    case 'protocols':
      if (!c.protocols?.length) return 'unknown';
      return c.protocols.includes(protoNumber(p)) ? 'match' : 'miss';
    case 'srcIp':
    case 'dstIp': {
      const ip = c.kind === 'srcIp' ? p.srcIp : p.dstIp;
      const v4 = ipToInt(ip);
      if (v4 !== undefined) {
        const rs = c.ipRanges;
        if (rs?.length) {
          for (const r of rs) if (v4 >= r.lo && v4 <= r.hi) return 'match';
          return 'miss';
        }
        return c.ip6Ranges?.length ? 'miss' : 'unknown';
      }
      return ipCheck(c, ip, '').result;
    }
    case 'srcPort':
    case 'dstPort': {
      const port = c.kind === 'srcPort' ? p.srcPort : p.dstPort;
      const rs = c.ports;
      if (!rs?.length) return 'unknown';
      if (port === undefined) return p.proto === 'icmp' ? 'miss' : 'unknown';
      for (const r of rs) if (port >= r.lo && port <= r.hi) return 'match';
      return 'miss';
    }
    default:
      return checkCondition(c, p).result;
  }
}

/** `checkConditions`'s result without its words. */
export function conditionsResult(conds: VfpCondition[], p: Packet): CondResult {
  let unknown = false;
  for (const c of conds) {
    const r = conditionResult(c, p);
    if (r === 'miss') return 'miss';
    if (r === 'unknown') unknown = true;
  }
  return unknown ? 'unknown' : 'match';
}

export function checkConditions(conds: VfpCondition[], p: Packet): CondCheck {
  let unknown: CondCheck | undefined;
  for (const c of conds) {
    const r = checkCondition(c, p);
    if (r.result === 'miss') return r;
    if (r.result === 'unknown') unknown ??= r;
  }
  return unknown ?? { result: 'match' };
}

interface CompiledRule {
  rule: VfpRule;
  order: number;
  /** Destination prefix length for LPM (0 when the rule has no destination condition). */
  dstBits: number;
}

/**
 * One destination's rules split again by the one destination port a rule requires (a node's NodePort
 * rules all name the node's address: 465 of them on one key of the big generated node).
 */
export interface ByPort {
  byPort: Map<number, CompiledRule[]>;
  /** The destination's rules that do not require one single port, in the group's order. */
  anyPort: CompiledRule[];
  /**
   * For reach's layer cuts (analysis/reach/layer-cuts.ts): the rules whose only port condition of either
   * side is one destination port, by that port; `portRest` is every other rule of the destination.
   */
  onlyPort: Map<number, CompiledRule[]>;
  portRest: CompiledRule[];
}

/** A destination's rule list longer than this is split by destination port. */
const SPLIT_BY_PORT = 8;

export interface CompiledGroup {
  /** Rules whose destination is one address: IPv4 by number, IPv6 by its hex text. */
  byDst: Map<number | string, CompiledRule[]>;
  /** The long lists of `byDst` again, by destination port. */
  byDstPort: Map<number | string, ByPort>;
  /** Rules without a single-address destination: always candidates. */
  others: CompiledRule[];
  /**
   * `others` again, split by the one source MAC a rule requires (the ExternalPort's transposition rules,
   * one per endpoint, all of one priority): a packet whose source MAC is known can only match those
   * listed under its MAC and `othersAnyMac`.
   */
  othersBySrcMac: Map<string, CompiledRule[]>;
  othersAnyMac: CompiledRule[];
  ordered: CompiledRule[];
  lpm: boolean;
}

const compiled = new WeakMap<VfpGroup, CompiledGroup>();

function dstBitsOf(rule: VfpRule): number {
  const dst = rule.conditions.find((c) => c.kind === 'dstIp');
  // Folded, not spread: a rule may list more ranges than a call takes arguments.
  if (dst?.ipRanges?.length) return dst.ipRanges.reduce((m, r) => Math.min(m, rangeBits(r.lo, r.hi)), Infinity);
  if (dst?.ip6Ranges?.length) return dst.ip6Ranges.reduce((m, r) => Math.min(m, rangeBits6(r.lo, r.hi)), Infinity);
  return 0;
}

function singleDst(rule: VfpRule): number | string | undefined {
  const dst = rule.conditions.find((c) => c.kind === 'dstIp');
  if (!dst) return undefined;
  const n4 = dst.ipRanges?.length ?? 0;
  const n6 = dst.ip6Ranges?.length ?? 0;
  const [r4] = dst.ipRanges ?? [];
  const [r6] = dst.ip6Ranges ?? [];
  if (n4 === 1 && n6 === 0 && r4 && r4.lo === r4.hi) return r4.lo;
  if (n6 === 1 && n4 === 0 && r6 && r6.lo === r6.hi) return r6.lo;
  return undefined;
}

/**
 * The one destination port a rule requires (a condition listing exactly one port), or undefined. A
 * packet with another destination port misses that condition, so it misses the rule (checkConditions:
 * one miss is a miss whatever the other conditions say).
 */
function singleDstPort(rule: VfpRule): number | undefined {
  for (const c of rule.conditions) if (c.kind === 'dstPort' && c.ports?.length === 1 && c.ports[0]!.lo === c.ports[0]!.hi) return c.ports[0]!.lo;
  return undefined;
}

const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
};

function splitByPort(list: CompiledRule[]): ByPort {
  const byPort = new Map<number, CompiledRule[]>();
  const anyPort: CompiledRule[] = [];
  const onlyPort = new Map<number, CompiledRule[]>();
  const portRest: CompiledRule[] = [];
  for (const r of list) {
    const port = singleDstPort(r.rule);
    if (port === undefined) anyPort.push(r);
    else push(byPort, port, r);
    const portConds = r.rule.conditions.filter((c) => c.kind === 'dstPort' || c.kind === 'srcPort').length;
    if (port !== undefined && portConds === 1) push(onlyPort, port, r);
    else portRest.push(r);
  }
  return { byPort, anyPort, onlyPort, portRest };
}

/** The one source MAC a rule requires (a condition listing exactly one), upper-case as the walk compares. */
function singleSrcMac(rule: VfpRule): string | undefined {
  for (const c of rule.conditions) if (c.kind === 'srcMac' && c.macs?.length === 1) return c.macs[0]!.toUpperCase();
  return undefined;
}

function compile(g: VfpGroup): CompiledGroup {
  const lpm = g.matchType === 'lpm';
  const ordered: CompiledRule[] = g.rules.map((rule, i) => ({ rule, order: i, dstBits: dstBitsOf(rule) }));
  ordered.sort((a, b) => better(a, b, lpm));
  const byDst = new Map<number | string, CompiledRule[]>();
  const others: CompiledRule[] = [];
  for (const r of ordered) {
    const single = singleDst(r.rule);
    if (single === undefined) others.push(r);
    else {
      const list = byDst.get(single);
      if (list) list.push(r);
      else byDst.set(single, [r]);
    }
  }
  const othersBySrcMac = new Map<string, CompiledRule[]>();
  const othersAnyMac: CompiledRule[] = [];
  for (const r of others) {
    const mac = singleSrcMac(r.rule);
    if (mac === undefined) othersAnyMac.push(r);
    else {
      const list = othersBySrcMac.get(mac);
      if (list) list.push(r);
      else othersBySrcMac.set(mac, [r]);
    }
  }
  const byDstPort = new Map<number | string, ByPort>();
  for (const [k, list] of byDst) if (list.length > SPLIT_BY_PORT) byDstPort.set(k, splitByPort(list));
  return { byDst, byDstPort, others, othersBySrcMac, othersAnyMac, ordered, lpm };
}

/** Two lists in the group's order, merged (both are in that order). */
function mergeOrdered(a: CompiledRule[], b: CompiledRule[], lpm: boolean): CompiledRule[] {
  if (!a.length) return b;
  if (!b.length) return a;
  const out: CompiledRule[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x && (!y || better(x, y, lpm) <= 0)) {
      out.push(x);
      i++;
    } else if (y) {
      out.push(y);
      j++;
    }
  }
  return out;
}

/**
 * The rules of `others` that can match a packet: a rule requiring one source MAC other than the
 * packet's misses (checkCondition compares the upper-cased MAC with the listed ones), so it is neither
 * a match, nor an uncertain one, nor a tie. Every rule when the packet's source MAC is not known.
 */
function othersFor(c: CompiledGroup, p: Packet): CompiledRule[] {
  if (!p.srcMac || c.othersBySrcMac.size === 0) return c.others;
  return mergeOrdered(c.othersBySrcMac.get(p.srcMac.toUpperCase()) ?? [], c.othersAnyMac, c.lpm);
}

/** Rank of a rule in its group: the same rank means VFP has no stated way to choose between the two. */
function rank(a: CompiledRule, b: CompiledRule, lpm: boolean): number {
  if (lpm && a.dstBits !== b.dstBits) return b.dstBits - a.dstBits;
  const pa = a.rule.priority ?? Number.MAX_SAFE_INTEGER;
  const pb = b.rule.priority ?? Number.MAX_SAFE_INTEGER;
  return pa - pb;
}

/** Sort order: the rule VFP prefers first (printed order breaks a tie, but the tie is reported). */
function better(a: CompiledRule, b: CompiledRule, lpm: boolean): number {
  return rank(a, b, lpm) || a.order - b.order;
}

export interface RuleMatch {
  rule: VfpRule;
  /** A condition could not be evaluated; the match is an inference. */
  uncertain?: string;
  /** Another rule of the same rank that also matches. */
  tie?: VfpRule;
  /** The tied rule does the same thing (same type and data), so the outcome does not depend on the choice. */
  tieSame?: boolean;
}

export function compiledGroup(g: VfpGroup): CompiledGroup {
  let c = compiled.get(g);
  if (!c) {
    // Counted against the budget of the walk or check running now (services/backend/budgeted.ts).
    spend(g.rules.length);
    c = compile(g);
    compiled.set(g, c);
  }
  return c;
}

function dstKey(ip: string): number | string | undefined {
  return ipToInt(ip) ?? ipv6ToHex(ip);
}

function sameEffect(a: VfpRule, b: VfpRule): boolean {
  if (a.type !== b.type) return false;
  const ea = ruleEffect(a);
  const eb = ruleEffect(b);
  const dips = (r: VfpRule) => r.dipRanges.map((d) => `${d.ip}:${d.port ?? ''}`).sort().join(',');
  const enc = (r: VfpRule) => r.encapDestinations.map((d) => `${d.ip}/${d.mac ?? ''}/${d.greKey ?? ''}`).join(',');
  return dips(a) === dips(b) && enc(a) === enc(b) && ea.natIp === eb.natIp && ea.natPool === eb.natPool && JSON.stringify(ea.modify) === JSON.stringify(eb.modify) && JSON.stringify(ea.rewrites) === JSON.stringify(eb.rewrites);
}

/**
 * A destination's candidates for the packet: with its destination port, only the rules requiring that
 * port and those requiring no single port (the others miss it); an ICMP packet has no port, so every
 * rule requiring one misses. A TCP or UDP packet without a port (the condition is then "unknown", not a
 * miss) takes the whole list.
 */
function candidatesByPort(c: CompiledGroup, key: number | string, exact: CompiledRule[], p: Packet): CompiledRule[] {
  const s = c.byDstPort.get(key);
  if (!s) return exact;
  if (p.dstPort !== undefined) return mergeOrdered(s.byPort.get(p.dstPort) ?? [], s.anyPort, c.lpm);
  return p.proto === 'icmp' ? s.anyPort : exact;
}

/** The rule the group selects for the packet, or undefined. */
export function selectRule(g: VfpGroup, p: Packet): RuleMatch | undefined {
  const c = compiledGroup(g);
  const key = dstKey(p.dstIp);
  const exact = key === undefined ? undefined : c.byDst.get(key);
  // Merge the exact-destination candidates with the always-candidates, best first.
  let i = 0;
  let j = 0;
  const a = exact ? candidatesByPort(c, key!, exact, p) : [];
  const b = othersFor(c, p);
  let uncertain: RuleMatch | undefined;
  let found: { m: RuleMatch; cr: CompiledRule } | undefined;
  for (;;) {
    const ai = a[i];
    const bj = b[j];
    let next: CompiledRule;
    if (ai && (!bj || better(ai, bj, c.lpm) <= 0)) {
      next = ai;
      i++;
    } else if (bj) {
      next = bj;
      j++;
    } else break;
    spend();
    if (found) {
      // Only rules of the same rank as the chosen one can tie.
      if (rank(next, found.cr, c.lpm) !== 0) break;
      if (conditionsResult(next.rule.conditions, p) === 'match' && next.rule !== found.cr.rule) {
        found.m.tie = next.rule;
        found.m.tieSame = sameEffect(found.cr.rule, next.rule);
        break;
      }
      continue;
    }
    const r = conditionsResult(next.rule.conditions, p);
    if (r === 'match') {
      found = { m: uncertain ?? { rule: next.rule }, cr: next };
      if (uncertain) break;
      continue;
    }
    // The words of why only for the first uncertain rule (the one the walk reports).
    if (r === 'unknown' && !uncertain) uncertain = { rule: next.rule, uncertain: checkConditions(next.rule.conditions, p).why };
  }
  return found?.m ?? uncertain;
}

/** The rules VFP would have preferred to `chosen` and why each did not match (for the walkthrough). */
export function explainSkipped(g: VfpGroup, p: Packet, chosen: VfpRule | undefined, limit = 6): SkippedRule[] {
  const c = compiledGroup(g);
  const out: SkippedRule[] = [];
  for (const r of c.ordered) {
    if (r.rule === chosen) break;
    const check = checkConditions(r.rule.conditions, p);
    if (check.result === 'match') continue;
    out.push({ rule: r.rule.name, priority: r.rule.priority, why: check.why ?? 'no match', src: r.rule.src });
  }
  // The nearest ones matter most: those just above the chosen rule.
  return out.slice(-limit);
}
