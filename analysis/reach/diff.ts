// Differential reachability between two bundles (issue #25 point 5): each source of bundle A (its pods
// and the host) is matched in bundle B by Kubernetes name where a snapshot has it, else by address;
// both partitions are overlaid (the union of their boundaries) and every region whose outcome differs
// is listed, adjacent regions with the same change merged. The outcome compared is what a fault can
// change without changing the verdict (audit of issue #25, A1): the verdict, the deciding rule, the
// reply's verdict, the rewrites (SNAT on or off, DNAT target, encapsulation), the next hop and
// tunnel endpoint, and — when the findings are given — the ids of the error and warning findings on
// the path. Destinations are compared by address: a pod that came back with another address shows as
// two changes. On a dual-stack node each family is its own set of sources (a pod's IPv4 address and its
// IPv6 address, the host's two: v6/sources6.ts), matched within its family, each partition over its
// own family's header space (a walk never changes family).
import type { NodeModel } from '../../parsers/model/types.ts';
import type { FindingView } from '../findings/types.ts';
import { familyOf, intToIp, ipToInt } from '../walk/ip.ts';
import { walkFlow } from '../walk/engine.ts';
import { findingsOnPath } from '../walk/findings-on-path.ts';
import type { Flow } from '../walk/types.ts';
import { defaultSources, type Source } from './matrix.ts';
import { sources6 } from './v6/sources6.ts';
import { bigToIp6, ip6ToBig, IP6_MAX } from './v6/addr6.ts';
import { reachFrom, type ReachClass, type ReachFrom, type ReachOptions, type ReachProto } from './partition.ts';
import type { Outcome, ReachVerdict } from './outcome.ts';

export interface Side {
  verdict: ReachVerdict;
  decidingRule: string | null;
  reply: ReachVerdict | null;
  // The three below are always set by diffReach (optional for callers that build a Side by hand).
  /** What rules rewrote on the way ("SNAT …: source 192.168.30.21 (rule)"), in order; [] when nothing. */
  rewrites?: string[];
  /** Where it left the node: the next hop ("the destination" when on-link), or null. */
  nextHop?: string | null;
  /** The tunnel endpoint it was encapsulated to, or null. */
  encap?: string | null;
  /** Ids of the error and warning findings on the path (sorted); absent when findings were not given. */
  findings?: string[];
}

export interface ReachChange {
  from: string;
  fromName?: string;
  /** The source's address in bundle B when it differs (matched by name). */
  fromAfter?: string;
  dst: [string, string];
  ports: [number, number] | null;
  proto: ReachProto;
  before: Side;
  after: Side;
}

export interface ReachDiff {
  changed: ReachChange[];
  /** Sources only one bundle has. */
  onlyBefore: Source[];
  onlyAfter: Source[];
  budgetHit: boolean;
}

export interface DiffOptions extends ReachOptions {
  /** Each bundle's findings (analysis/view-models modelFindings): the ones on a class's path are compared too. */
  findings?: { before: readonly FindingView[]; after: readonly FindingView[] };
}

/**
 * The side of a change as compared: the packet's own destination address (which differs between the
 * examples of two overlaid classes) is replaced by "the destination" so that the same path compares equal.
 */
export function outcomeSide(o: Omit<Outcome, 'key'>, dstIp: string, findings?: string[]): Side {
  // The address as a word of its own, not inside a rule's name (`…_10.244.1.0_24_…`, `…_fd00:96::5_80_…`);
  // an IPv6 address not inside a longer one (`fd00::a` in `fd00::ab` or `fd00::a:1`).
  const re = dstIp.includes(':') ? new RegExp(`(^|[^\\w:.])${dstIp.replace(/\./g, '\\.')}(?![\\w:])`, 'g') : new RegExp(`(^|[^0-9.\\w])${dstIp.replace(/\./g, '\\.')}(?![0-9_])`, 'g');
  const own = (s: string) => s.replace(re, '$1the destination');
  return {
    verdict: o.verdict,
    decidingRule: o.decidingRule,
    reply: o.reply?.verdict ?? null,
    rewrites: o.rewrites.map(own),
    nextHop: o.nextHop === undefined ? null : own(o.nextHop),
    encap: o.encap ?? null,
    ...(findings ? { findings } : {}),
  };
}

/** Ids of the error and warning findings on the walk of one packet (the request; sorted, once each). */
export function pathFindingIds(m: NodeModel, flow: Flow, findings: readonly FindingView[]): string[] {
  const fs = findingsOnPath(m, walkFlow(m, flow), findings).findings;
  return [...new Set(fs.filter((f) => f.severity !== 'info').map((f) => f.id))].sort();
}

const sameSide = (a: Side, b: Side) => JSON.stringify(a) === JSON.stringify(b);

interface Row {
  lo: bigint;
  hi: bigint;
  classes: ReachClass[];
}

/** Addresses of one family as numbers (IPv4 as IPv6 are both bigint here: one overlay for both). */
interface Space {
  num(ip: string): bigint;
  text(n: bigint): string;
  max: bigint;
}
const SPACE4: Space = { num: (ip) => BigInt(ipToInt(ip)!), text: (n) => intToIp(Number(n)), max: 0xffffffffn };
const SPACE6: Space = { num: (ip) => ip6ToBig(ip)!, text: bigToIp6, max: IP6_MAX };

/** Classes of one protocol grouped by address range (a range's classes split its ports), in address order. */
function rows(r: ReachFrom, proto: ReachProto, sp: Space): Row[] {
  const out: Row[] = [];
  for (const c of r.classes) {
    if (c.proto !== proto) continue;
    const lo = sp.num(c.dst[0]);
    const last = out[out.length - 1];
    if (last && last.lo === lo) last.classes.push(c);
    else out.push({ lo, hi: sp.num(c.dst[1]), classes: [c] });
  }
  return out.sort((a, b) => (a.lo < b.lo ? -1 : a.lo > b.lo ? 1 : 0));
}

function portCuts(a: ReachClass[], b: ReachClass[]): ([number, number] | null)[] {
  const [first] = a;
  if (first?.ports === null) return [null];
  const starts = new Set<number>();
  for (const c of [...a, ...b]) if (c.ports) starts.add(c.ports[0]);
  const s = [...starts].sort((x, y) => x - y);
  return s.map((lo, i) => {
    const next = s[i + 1];
    return [lo, next !== undefined ? next - 1 : 65535] as [number, number];
  });
}

const holding = (cs: ReachClass[], port: number | undefined) => cs.find((c) => c.ports === null || (port !== undefined && c.ports[0] <= port && port <= c.ports[1]))!;

const plainSide = (c: ReachClass): Side => outcomeSide(c, c.example.dstIp);

/** The changes between two partitions of one source. */
export function diffPartitions(a: ReachFrom, b: ReachFrom, from: Source, fromAfter?: string, side: { before: (c: ReachClass) => Side; after: (c: ReachClass) => Side } = { before: plainSide, after: plainSide }): ReachChange[] {
  const out: ReachChange[] = [];
  const sp = familyOf(from.ip) === 6 ? SPACE6 : SPACE4;
  for (const proto of ['tcp', 'udp', 'icmp'] as ReachProto[]) {
    const ra = rows(a, proto, sp);
    const rb = rows(b, proto, sp);
    if (!ra.length || !rb.length) continue;
    let i = 0;
    let j = 0;
    let x = ra[i];
    let y = rb[j];
    let at = 0n;
    // Open changes of the previous address region, by ports, to extend when the next region repeats them.
    let open = new Map<string, ReachChange>();
    while (x && y) {
      const hi = x.hi < y.hi ? x.hi : y.hi;
      const next = new Map<string, ReachChange>();
      for (const ports of portCuts(x.classes, y.classes)) {
        const ca = holding(x.classes, ports?.[0]);
        const cb = holding(y.classes, ports?.[0]);
        if (!ca || !cb) continue;
        const before = side.before(ca);
        const after = side.after(cb);
        if (sameSide(before, after)) continue;
        const k = `${ports?.join('-') ?? ''}|${JSON.stringify(before)}|${JSON.stringify(after)}`;
        const prev = open.get(k);
        if (prev && sp.num(prev.dst[1]) + 1n === at) {
          prev.dst = [prev.dst[0], sp.text(hi)];
          next.set(k, prev);
        } else {
          const c: ReachChange = { from: from.ip, ...(from.name ? { fromName: from.name } : {}), ...(fromAfter && fromAfter !== from.ip ? { fromAfter } : {}), dst: [sp.text(at), sp.text(hi)], ports, proto, before, after };
          out.push(c);
          next.set(k, c);
        }
      }
      open = next;
      if (hi === sp.max) break;
      at = hi + 1n;
      if (x.hi < at) x = ra[++i];
      if (y.hi < at) y = rb[++j];
    }
  }
  return out;
}

export interface SourcePairs {
  /** Each source of A with its match in B: IPv4 sources first, then IPv6 ones. */
  pairs: [Source, Source][];
  onlyBefore: Source[];
  onlyAfter: Source[];
}

/**
 * The sources of two bundles matched: by Kubernetes name where a snapshot has it, else by address, each
 * family on its own (a dual-stack pod is an IPv4 source and an IPv6 source; the host's two addresses are
 * both named "host", so the family keeps them apart).
 */
export function matchSources(a: NodeModel, b: NodeModel): SourcePairs {
  const out: SourcePairs = { pairs: [], onlyBefore: [], onlyAfter: [] };
  const key = (s: Source) => (s.name ? `name:${s.name}` : `ip:${s.ip}`);
  for (const of of [defaultSources, sources6]) {
    const sa = of(a);
    const sb = of(b);
    const byKey = new Map(sb.map((s) => [key(s), s]));
    const byIp = new Map(sb.map((s) => [s.ip, s]));
    const used = new Set<Source>();
    for (const s of sa) {
      const t = byKey.get(key(s)) ?? (s.name ? undefined : byIp.get(s.ip));
      if (t && !used.has(t)) {
        out.pairs.push([s, t]);
        used.add(t);
      } else out.onlyBefore.push(s);
    }
    out.onlyAfter.push(...sb.filter((s) => !used.has(s)));
  }
  return out;
}

export function diffReach(a: NodeModel, b: NodeModel, o: DiffOptions = {}): ReachDiff {
  const { pairs, onlyBefore, onlyAfter } = matchSources(a, b);
  const changed: ReachChange[] = [];
  let budgetHit = false;
  for (const [s, t] of pairs) {
    const ra = reachFrom(a, s.ip, o);
    const rb = reachFrom(b, t.ip, o);
    budgetHit ||= ra.budget.hit || rb.budget.hit;
    changed.push(...diffPartitions(ra, rb, s, t.ip, { before: sideIn(a, s.ip, o.findings?.before), after: sideIn(b, t.ip, o.findings?.after) }));
  }
  return { changed, onlyBefore, onlyAfter, budgetHit };
}

/** A class's side in one bundle, with the findings on its example's path when they are given (each class once). */
export function sideIn(m: NodeModel, src: string, findings: readonly FindingView[] | undefined): (c: ReachClass) => Side {
  const memo = new Map<ReachClass, Side>();
  return (c) => {
    let x = memo.get(c);
    if (!x) {
      const flow: Flow = { srcIp: src, dstIp: c.example.dstIp, proto: c.proto, ...(c.example.dstPort !== undefined ? { dstPort: c.example.dstPort } : {}) };
      x = outcomeSide(c, c.example.dstIp, findings ? pathFindingIds(m, flow, findings) : undefined);
      memo.set(c, x);
    }
    return x;
  };
}
