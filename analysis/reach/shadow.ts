// Rules that can never match (issue #25 point 4), per port: a rule is shadowed when a rule of the same
// group that VFP prefers (lower priority number; groups select by priority, walk-port.ts / match.ts)
// matches every packet it matches — Batfish's filterLineReachability, with the blocking rule named and
// whether its action differs. Crossed with the dump's counters (`vfpctrl /get-rule-counter`): a
// shadowed rule with hits means the model or the collection is wrong; a matchable rule with 0 hits is
// listed as such. Only single blocking rules are found (several rules that together cover one are
// not); longest-prefix groups are not analysed (the most specific destination wins, not the order).
import type { NodeModel } from '../../parsers/model/types.ts';
import { plural } from '../../parsers/text/quantities.ts';
import type { NumRange, VfpCondition, VfpRule } from '../../parsers/vfp/index.ts';

export interface Blocker {
  rule: string;
  priority?: number;
  /** The blocking rule does something else (another type or other data). */
  actionDiffers: boolean;
}

export interface ShadowedRule {
  port: string;
  layer: string;
  group: string;
  rule: string;
  priority?: number;
  blockedBy: Blocker[];
  /** Hits the dump counts for the shadowed rule (absent: no counters). */
  matchedPackets?: number;
  /** Said loudly: the rule cannot match, yet the counters say it did. */
  contradiction?: string;
  src: { file: string; line: number };
}

export interface UnusedRule {
  port: string;
  layer: string;
  group: string;
  rule: string;
  priority?: number;
}

export interface ShadowReport {
  shadowed: ShadowedRule[];
  /** Rules that can match but the counters show 0 packets (only for dumps with counters). */
  zeroHits: { count: number; first: UnusedRule[] };
  portsWithCounters: number;
  portsRead: number;
  /** Groups not analysed and why (longest-prefix groups, the pair budget). */
  notAnalysed: string[];
}

function covers(outer: NumRange[], inner: NumRange[]): boolean {
  const o = [...outer].sort((a, b) => a.lo - b.lo);
  return inner.every((r) => {
    let at = r.lo;
    for (const x of o) {
      if (x.lo > at) break;
      if (x.hi >= at) at = x.hi + 1;
      if (at > r.hi) return true;
    }
    return at > r.hi;
  });
}

/** Does condition `b` accept every value `r` accepts? undefined when either is not understood. */
function condCovers(b: VfpCondition, r: VfpCondition): boolean | undefined {
  switch (b.kind) {
    case 'srcIp':
    case 'dstIp':
      if (b.ip6Ranges?.length || r.ip6Ranges?.length) return b.value === r.value ? true : undefined;
      return b.ipRanges?.length && r.ipRanges?.length ? covers(b.ipRanges, r.ipRanges) : undefined;
    case 'srcPort':
    case 'dstPort':
      return b.ports?.length && r.ports?.length ? covers(b.ports, r.ports) : undefined;
    case 'protocols':
      return b.protocols?.length && r.protocols?.length ? r.protocols.every((p) => b.protocols!.includes(p)) : undefined;
    case 'srcMac':
    case 'dstMac':
      return b.macs?.length && r.macs?.length ? r.macs.every((x) => b.macs!.includes(x)) : undefined;
    default:
      return b.key === r.key && b.value === r.value ? true : undefined;
  }
}

/** Does `b` match every packet `r` matches (true only when every condition of b provably covers r's)? */
export function ruleCovers(b: VfpRule, r: VfpRule): boolean {
  for (const c of b.conditions) {
    const same = r.conditions.filter((x) => x.kind === c.kind && (c.kind !== 'other' || x.key === c.key));
    // b restricts something r does not: r matches packets b does not.
    if (!same.length) return false;
    if (!same.some((x) => condCovers(c, x) === true)) return false;
  }
  return true;
}

const effectOf = (r: VfpRule) => `${r.type}|${r.ruleData.join('\n')}|${r.dipRanges.map((d) => `${d.ip}:${d.port ?? ''}`).join(',')}|${JSON.stringify(r.modify)}`;

export function shadowedRules(m: NodeModel, o: { maxPairs?: number; portKeys?: string[]; firstZero?: number } = {}): ShadowReport {
  const maxPairs = o.maxPairs ?? 5_000_000;
  let pairs = 0;
  const out: ShadowReport = { shadowed: [], zeroHits: { count: 0, first: [] }, portsWithCounters: 0, portsRead: 0, notAnalysed: [] };
  const wanted = o.portKeys ? new Set(o.portKeys.map((k) => k.toLowerCase())) : undefined;
  let lpmGroups = 0;
  for (const p of m.ports ?? []) {
    if (!p.policy || !m.vfp || (wanted && !wanted.has(p.key))) continue;
    const policy = m.vfp.getPolicy(p.key);
    if (!policy) continue;
    out.portsRead++;
    const counted = policy.layers.some((l) => l.groups.some((g) => g.rules.some((r) => r.counters?.matchedPackets !== undefined)));
    if (counted) out.portsWithCounters++;
    for (const layer of policy.layers)
      for (const g of layer.groups) {
        if (g.matchType === 'lpm') {
          lpmGroups++;
          continue;
        }
        const ordered = [...g.rules].sort((a, b) => (a.priority ?? Number.MAX_SAFE_INTEGER) - (b.priority ?? Number.MAX_SAFE_INTEGER));
        for (const [i, r] of ordered.entries()) {
          const blockers: Blocker[] = [];
          if (r.priority !== undefined) {
            for (const [j, b] of ordered.entries()) {
              if (j >= i || pairs >= maxPairs) break;
              if (b.priority === undefined || b.priority >= r.priority) continue;
              pairs++;
              if (ruleCovers(b, r)) blockers.push({ rule: b.name, ...(b.priority !== undefined ? { priority: b.priority } : {}), actionDiffers: effectOf(b) !== effectOf(r) });
            }
          }
          const hits = r.counters?.matchedPackets;
          const where = { port: p.name, layer: layer.friendlyName ?? layer.id, group: g.friendlyName ?? g.id, rule: r.name, ...(r.priority !== undefined ? { priority: r.priority } : {}) };
          const [first] = blockers;
          if (first) {
            out.shadowed.push({
              ...where,
              blockedBy: blockers,
              ...(hits !== undefined ? { matchedPackets: hits } : {}),
              ...(hits ? { contradiction: `${r.name} cannot match (${first.rule} takes every packet it would), yet the counters show ${plural(hits, 'matched packet')}: the rules as read or the collection are wrong` } : {}),
              src: { file: r.src.file, line: r.src.line },
            });
          } else if (hits === 0) {
            out.zeroHits.count++;
            if (out.zeroHits.first.length < (o.firstZero ?? 50)) out.zeroHits.first.push(where);
          }
        }
      }
  }
  if (lpmGroups) out.notAnalysed.push(`${plural(lpmGroups, 'longest-prefix-match group')}: the most specific destination wins there, not the order`);
  if (pairs >= maxPairs) out.notAnalysed.push(`the budget of ${maxPairs} rule comparisons was spent: rules after it were not compared`);
  return out;
}
