// The Compare view's reachability part: the packet classes whose outcome changed between two bundles
// (analysis/reach diffPartitions), as the app receives them, the filters (by words, by the kind of
// change) and each change's example packet on each side. Pure: the renderer draws what this returns,
// the unit tests check it without a DOM.
import type { ReachChange, ReachVerdict, Source } from '../reach/index.ts';
import { sideDifferences } from '../reach/format.ts';
import type { Flow } from '../walk/types.ts';
import { intToIp, ipToInt } from '../walk/ip.ts';
import { bigToIp6, ip6ToBig, middle6 } from '../reach/v6/addr6.ts';
import type { ChangeDestination } from './reach-change-destination.ts';

/** A change as the app receives it: with what its packets are addressed to, when the worker told it. */
export type ReachChangeLine = ReachChange & { to?: ChangeDestination };

export interface ReachDiffView {
  changed: ReachChangeLine[];
  /** Sources (pods, the host) only one bundle has. */
  onlyBefore: Source[];
  onlyAfter: Source[];
  /** Sources compared, and how many both bundles have. */
  compared: number;
  sources: number;
  /** Limits and what was not compared, in words for the user. */
  notes: string[];
}

export type ReachChangeFilter = 'all' | 'worse' | 'better' | 'other';

const GETS: ReachVerdict[] = ['delivered', 'forwarded', 'delivered or forwarded'];
const gets = (v: ReachVerdict | null) => v !== null && GETS.includes(v);

/** Worse: the packet (or its reply) got through before and does not after; better: the other way. */
export function changeKind(c: ReachChange): Exclude<ReachChangeFilter, 'all'> {
  const a = gets(c.before.verdict) && (c.before.reply === null || gets(c.before.reply));
  const b = gets(c.after.verdict) && (c.after.reply === null || gets(c.after.reply));
  return a && !b ? 'worse' : !a && b ? 'better' : 'other';
}

export function changeSource(c: ReachChange): string {
  return c.fromName ? `${c.fromName} (${c.from}${c.fromAfter ? ` → ${c.fromAfter}` : ''})` : c.from;
}

/** Where the packets of a change go: an address or a range, the ports, the protocol. */
export function changeTarget(c: ReachChange): string {
  const to = c.dst[0] === c.dst[1] ? c.dst[0] : `${c.dst[0]} – ${c.dst[1]}`;
  const ports = c.ports === null ? '' : c.ports[0] === c.ports[1] ? ` port ${c.ports[0]}` : c.ports[0] === 1 && c.ports[1] === 65535 ? ' any port' : ` ports ${c.ports[0]}–${c.ports[1]}`;
  return `${to}${ports} ${c.proto.toUpperCase()}`;
}

/** One side in words; with the other side, what else differs (a change that keeps the verdict: SNAT lost, another next hop). */
export function sideWords(s: ReachChange['before'], other?: ReachChange['before']): string {
  const reply = s.reply === null ? '' : `, reply ${s.reply}`;
  const more = other ? sideDifferences(s, other) : [];
  return `${s.verdict}${s.decidingRule ? ` by rule ${s.decidingRule}` : ''}${reply}${more.map((m) => `; ${m}`).join('')}`;
}

/**
 * One side as the list's line shows it, cut at its end when narrow: what differs from the other side
 * first when the verdict, deciding rule and reply are the same on both (a finding appeared, SNAT was
 * lost), else as sideWords — a line cut before its difference read "ambiguous by rule …" on both sides.
 */
export function sideLine(s: ReachChange['before'], other: ReachChange['before']): string {
  const more = sideDifferences(s, other);
  const same = s.verdict === other.verdict && s.decidingRule === other.decidingRule && s.reply === other.reply;
  if (!same || !more.length) return sideWords(s, other);
  const reply = s.reply === null ? '' : `, reply ${s.reply}`;
  return `${more.join('; ')} — ${s.verdict}${s.decidingRule ? ` by rule ${s.decidingRule}` : ''}${reply}`;
}

/** A change in words (the list's line, its aria-label). */
export function changeWords(c: ReachChange): string {
  return `From ${changeSource(c)} to ${changeTarget(c)}: before ${sideWords(c.before, c.after)}; after ${sideWords(c.after, c.before)}`;
}

export function filterChanges(changes: readonly ReachChange[], kind: ReachChangeFilter, query: string): ReachChange[] {
  const q = query.trim().toLowerCase();
  return changes.filter((c) => (kind === 'all' || changeKind(c) === kind) && (!q || changeWords(c).toLowerCase().includes(q)));
}

/**
 * The example packet of a change on one side: the middle of its addresses and ports (every packet of
 * a change meets the same class in each bundle, so any one stands for it), from the source's address
 * in that bundle.
 */
export function changeFlow(c: ReachChange, side: 'a' | 'b'): Flow {
  const lo = ipToInt(c.dst[0]);
  const hi = ipToInt(c.dst[1]);
  // An IPv6 change (a dual-stack node's IPv6 source): the middle of its 128-bit range.
  const dstIp = lo !== undefined && hi !== undefined ? intToIp(lo + Math.floor((hi - lo) / 2)) : bigToIp6(middle6({ lo: ip6ToBig(c.dst[0])!, hi: ip6ToBig(c.dst[1])! }));
  const srcIp = side === 'b' ? (c.fromAfter ?? c.from) : c.from;
  if (c.proto === 'icmp' || c.ports === null) return { srcIp, dstIp, proto: c.proto };
  return { srcIp, dstIp, proto: c.proto, dstPort: c.ports[0] + Math.floor((c.ports[1] - c.ports[0]) / 2) };
}
