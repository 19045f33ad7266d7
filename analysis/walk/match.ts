// Which rule of a VFP group a packet matches. A group selects by priority (lowest number wins) or,
// for "Longest prefix match on Destination IP" groups, by the most specific destination range
// (priority breaks ties). Groups are compiled once into an index by exact destination IP so that a
// group of thousands of load-balancer rules answers in constant time.
import type { VfpCondition, VfpGroup, VfpRule } from '../../parsers/vfp/index.ts';
import type { Packet, SkippedRule } from './types.ts';
import { ipToInt, rangeBits } from './ip.ts';

const PROTO: Record<string, number> = { tcp: 6, udp: 17, icmp: 1 };

export type CondResult = 'match' | 'miss' | 'unknown';

export interface CondCheck {
  result: CondResult;
  /** The condition that failed or could not be evaluated. */
  why?: string;
}

export function checkCondition(c: VfpCondition, p: Packet): CondCheck {
  switch (c.kind) {
    case 'protocols':
      if (!c.protocols?.length) return { result: 'unknown', why: `${c.key} : ${c.value} not understood` };
      return c.protocols.includes(PROTO[p.proto]) ? { result: 'match' } : { result: 'miss', why: `protocol ${PROTO[p.proto]} ∉ ${c.value}` };
    case 'srcIp':
    case 'dstIp': {
      const ip = ipToInt(c.kind === 'srcIp' ? p.srcIp : p.dstIp);
      if (!c.ipRanges?.length || ip === undefined) return { result: 'unknown', why: `${c.key} : ${c.value} not understood` };
      return c.ipRanges.some((r) => ip >= r.lo && ip <= r.hi)
        ? { result: 'match' }
        : { result: 'miss', why: `${c.kind === 'srcIp' ? 'source' : 'destination'} ${c.kind === 'srcIp' ? p.srcIp : p.dstIp} ∉ ${c.value}` };
    }
    case 'srcPort':
    case 'dstPort': {
      const port = c.kind === 'srcPort' ? p.srcPort : p.dstPort;
      if (!c.ports?.length) return { result: 'unknown', why: `${c.key} : ${c.value} not understood` };
      if (port === undefined) return { result: 'unknown', why: `the flow has no ${c.kind === 'srcPort' ? 'source' : 'destination'} port to compare with ${c.value}` };
      return c.ports.some((r) => port >= r.lo && port <= r.hi) ? { result: 'match' } : { result: 'miss', why: `${c.kind === 'srcPort' ? 'source' : 'destination'} port ${port} ∉ ${c.value}` };
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

export interface CompiledGroup {
  byDst: Map<number, CompiledRule[]>;
  /** Rules without a single-address destination: always candidates. */
  others: CompiledRule[];
  ordered: CompiledRule[];
  lpm: boolean;
}

const compiled = new WeakMap<VfpGroup, CompiledGroup>();

function compile(g: VfpGroup): CompiledGroup {
  const lpm = g.matchType === 'lpm';
  const ordered: CompiledRule[] = g.rules.map((rule, i) => {
    const dst = rule.conditions.find((c) => c.kind === 'dstIp');
    const bits = dst?.ipRanges?.length ? Math.min(...dst.ipRanges.map((r) => rangeBits(r.lo, r.hi))) : 0;
    return { rule, order: i, dstBits: bits };
  });
  ordered.sort((a, b) => better(a, b, lpm));
  const byDst = new Map<number, CompiledRule[]>();
  const others: CompiledRule[] = [];
  for (const r of ordered) {
    const dst = r.rule.conditions.find((c) => c.kind === 'dstIp');
    const single = dst?.ipRanges?.length === 1 && dst.ipRanges[0].lo === dst.ipRanges[0].hi ? dst.ipRanges[0].lo : undefined;
    if (single === undefined) others.push(r);
    else {
      const list = byDst.get(single);
      if (list) list.push(r);
      else byDst.set(single, [r]);
    }
  }
  return { byDst, others, ordered, lpm };
}

/** Sort order: the rule VFP prefers first. */
function better(a: CompiledRule, b: CompiledRule, lpm: boolean): number {
  if (lpm && a.dstBits !== b.dstBits) return b.dstBits - a.dstBits;
  const pa = a.rule.priority ?? Number.MAX_SAFE_INTEGER;
  const pb = b.rule.priority ?? Number.MAX_SAFE_INTEGER;
  return pa - pb || a.order - b.order;
}

export interface RuleMatch {
  rule: VfpRule;
  /** A condition could not be evaluated; the match is an inference. */
  uncertain?: string;
}

export function compiledGroup(g: VfpGroup): CompiledGroup {
  let c = compiled.get(g);
  if (!c) {
    c = compile(g);
    compiled.set(g, c);
  }
  return c;
}

/** The rule the group selects for the packet, or undefined. */
export function selectRule(g: VfpGroup, p: Packet): RuleMatch | undefined {
  const c = compiledGroup(g);
  const dst = ipToInt(p.dstIp);
  const exact = dst === undefined ? undefined : c.byDst.get(dst);
  // Merge the exact-destination candidates with the always-candidates, best first.
  let i = 0;
  let j = 0;
  const a = exact ?? [];
  const b = c.others;
  let uncertain: RuleMatch | undefined;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && better(a[i], b[j], c.lpm) <= 0) ? a[i++] : b[j++];
    const r = checkConditions(next.rule.conditions, p);
    if (r.result === 'match') return uncertain ?? { rule: next.rule };
    if (r.result === 'unknown' && !uncertain) uncertain = { rule: next.rule, uncertain: r.why };
  }
  return uncertain;
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
