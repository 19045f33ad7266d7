// `reachFrom` for an IPv6 source: the classes of one source over the whole IPv6 header space
// (destination address × destination port per protocol; ICMPv6 has no port). The algorithm is
// partition.ts's: atoms of the node's IPv6 tables (boundaries6.ts), one example per cell walked with
// the engine (walkFlow with its reply, every backend of a load balancer: outcome.ts), a cell split
// where the IPv6 rules of a layer its walks crossed tell its packets apart (layer-cuts6.ts), adjacent
// cells with the same outcome merged (classes6.ts). Addresses are bigints (addr6.ts).
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { Flow, Proto, WalkResult } from '../../walk/types.ts';
import { walkFlow } from '../../walk/engine.ts';
import { outcomeOf, type Outcome } from '../outcome.ts';
import { pushSeg, skipped, type ReachClass, type Seg } from '../classes.ts';
import type { Interval } from '../intervals.ts';
import { sharedRulesModel } from '../shared-rules.ts';
import { plural } from '../../view-models/format.ts';
import type { ReachFrom, ReachOptions } from '../reach-types.ts';
import { bigToIp6, ip6ToBig, middle6, type Interval6 } from './addr6.ts';
import { hnsBoundaries6 } from './boundaries6.ts';
import { LayerCutter6 } from './layer-cuts6.ts';
import { ClassMerger6 } from './classes6.ts';
import { hasIpv6Pods, noRoutes6, otherFamilyOf } from './sources6.ts';

type AtomResult = { ip: bigint[] } | { segs: Seg[]; cells: number };

const DEFAULT_MAX_WALKS = 200_000;

/** Where the bundle has no IPv6 route at all, a walk's "no IPv6 route" is the collection's silence, not the node's. */
export function undecided(o: Outcome, w: WalkResult | undefined, why: string): Outcome {
  const h = w?.hops[w.deciding];
  if (o.verdict !== 'dropped' || h?.kind !== 'host-route' || h.effect?.kind !== 'drop' || h.effect.why !== 'no-route') return o;
  return { ...o, verdict: 'insufficient information', decidedAt: 'host routing', reason: why, reply: null, key: `noroute6\n${o.key}` };
}

/**
 * One IPv6 packet's outcome as its class has it: the walk's (outcome.ts), except that where the bundle
 * lists no IPv6 route at all, "dropped: no IPv6 route" is "insufficient information".
 */
export function outcomeOf6(m: NodeModel, f: Flow, walk?: (f: Flow) => WalkResult): Outcome {
  const r = outcomeOf(m, f, walk);
  const silence = noRoutes6(m);
  return silence ? undecided(r.outcome, r.walk, `where IPv6 packets leave the node cannot be read: ${silence}`) : r.outcome;
}

export function reachFrom6(node: NodeModel, srcIp: string, o: ReachOptions = {}): ReachFrom {
  const b = hnsBoundaries6(node);
  const m = sharedRulesModel(node);
  const cutter = new LayerCutter6(m);
  const maxWalks = o.maxWalks ?? DEFAULT_MAX_WALKS;
  const t0 = o.now?.();
  let walks = 0;
  let hit: string | undefined;
  const walkOne = o.walk ?? ((f: Flow) => walkFlow(m, f, { reply: true }));
  let cellWalks: WalkResult[] = [];
  const counted = (f: Flow) => {
    walks++;
    const w = walkOne(f);
    cellWalks.push(w);
    return w;
  };
  const protos = o.protos ?? ['tcp', 'udp', 'icmp'];
  const classes: ReachClass[] = [];
  let cells = 0;
  const v4 = otherFamilyOf(node, srcIp);
  const limitations: string[] = [v4 ? `the header space is IPv6; this source's IPv4 side: reach --from ${v4}` : 'the header space is IPv6; IPv4 destinations are partitioned from an IPv4 source (reach --from an IPv4 address)'];
  if (ip6ToBig(srcIp) === undefined) return { from: srcIp, classes, cells, walks, budget: { maxWalks, hit: false }, limitations: [...limitations, `${srcIp} is not an IPv6 address`] };
  const silence = noRoutes6(node);
  if (silence) limitations.push(`insufficient information: ${silence}`);
  if (!hasIpv6Pods(node)) limitations.push('the bundle shows no IPv6 pod address or pod subnet (no endpoint with an IPv6 address, no IPv6 subnet in the HNS networks): the classes show only what the node\'s IPv6 routes and addresses do');

  const cellOutcome = (f: Flow): Outcome => {
    if (!hit && walks >= maxWalks) hit = `the budget of ${maxWalks} walks was spent`;
    if (!hit && o.now && o.maxMs !== undefined && o.now() - t0! > o.maxMs) hit = `the time budget of ${o.maxMs} ms was spent`;
    if (hit) return skipped(`not walked: ${hit}`);
    return outcomeOf6(m, f, counted);
  };

  const walkAtom = (a: Interval6, proto: 'tcp' | 'udp' | 'icmp', portAtoms: (Interval | null)[]): AtomResult => {
    const dstIp = bigToIp6(middle6(a));
    const segs: Seg[] = [];
    let n = 0;
    const cell = (pa: Interval | null): bigint[] | undefined => {
      const example: Flow = { srcIp, dstIp, proto: proto as Proto, ...(pa ? { dstPort: pa.lo + Math.floor((pa.hi - pa.lo) / 2) } : {}) };
      cellWalks = [];
      const out = cellOutcome(example);
      const cut = cellWalks.length ? cutter.cuts(cellWalks, dstIp, example.dstPort, a, pa) : undefined;
      if (cut?.ip.length) return cut.ip;
      if (!cut?.ports.length) {
        n++;
        pushSeg(segs, pa, example, out);
        return undefined;
      }
      const starts = [pa!.lo, ...cut.ports];
      for (const [k, lo] of starts.entries()) {
        const next = starts[k + 1];
        const ip = cell({ lo, hi: next !== undefined ? next - 1 : pa!.hi });
        if (ip) return ip;
      }
      return undefined;
    };
    for (const pa of portAtoms) {
      const ip = cell(pa);
      if (ip) return { ip };
    }
    return { segs, cells: n };
  };

  for (const proto of protos) {
    const merger = new ClassMerger6(proto, classes);
    b.ipAtoms.forEach((atom, i) => {
      const portAtoms = proto === 'icmp' ? [null] : b.portAtoms(i, proto);
      const todo: Interval6[] = [atom];
      while (todo.length) {
        const a = todo.pop()!;
        const r = walkAtom(a, proto, portAtoms);
        if ('ip' in r) {
          // A rule on the path tells addresses of the interval apart: walk each piece on its own.
          const starts = [a.lo, ...r.ip];
          for (let k = starts.length - 1; k >= 0; k--) {
            const next = starts[k + 1];
            todo.push({ lo: starts[k]!, hi: next !== undefined ? next - 1n : a.hi });
          }
          continue;
        }
        cells += r.cells;
        merger.add(a.lo, a.hi, r.segs, r.cells);
      }
    });
    merger.flush();
  }
  if (cutter.srcPortRules) limitations.push(`${plural(cutter.srcPortRules, 'rule')} on the classes' paths compare the source port; every class is walked with the source port the walk assumes (49152)`);
  return { from: srcIp, classes, cells, walks, budget: { maxWalks, hit: !!hit, ...(hit ? { note: `${hit}: the cells after it are "insufficient information"` } : {}) }, limitations };
}

/** The IPv6 class holding a packet. */
export function classOf6(r: ReachFrom, dstIp: string, proto: ReachClass['proto'], dstPort?: number): ReachClass | undefined {
  const n = ip6ToBig(dstIp);
  if (n === undefined) return undefined;
  return r.classes.find((c) => c.proto === proto && ip6ToBig(c.dst[0])! <= n && n <= ip6ToBig(c.dst[1])! && (c.ports === null || (dstPort !== undefined && c.ports[0] <= dstPort && dstPort <= c.ports[1])));
}
