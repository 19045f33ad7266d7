// Reachability from one source over the whole IPv4 header space (issue #25 points 1 and 7). The
// header space is destination address × destination port (TCP, UDP; ICMP has none) per protocol. It
// starts cut only where the node's tables tell packets apart (HNS, routes, addresses, load balancers:
// hnsBoundaries), and a cell is split further only where a rule of a VFP layer its walks crossed tells
// its packets apart (layer-cuts.ts): a source pod's OUT layers see every cell, a destination pod's IN
// layers only the cells that reach that pod. One example per cell is walked (walkFlow, its reply too,
// every backend of a load balancer); a cell no cut falls inside is final, and its outcome is its
// example's walk — the same for every packet of it. Adjacent final cells with the same outcome merge
// into classes (classes.ts). `reachFromCells` (partition-cells.ts) walks every atomic cell of every
// rule instead: the oracle the tests compare with.
// Bounded: at most `maxWalks` walks (and `maxMs` when a clock is given); cells beyond that are
// reported as "insufficient information" and the result says the budget was hit.
import type { NodeModel } from '../../parsers/model/types.ts';
import { intToIp, ipToInt } from '../walk/ip.ts';
import type { Flow, Proto, WalkResult } from '../walk/types.ts';
import { walkFlow } from '../walk/engine.ts';
import { hnsBoundaries } from './boundaries.ts';
import { middle, type Interval } from './intervals.ts';
import { outcomeOf, type Outcome } from './outcome.ts';
import { ClassMerger, pushSeg, skipped, type ReachClass, type ReachProto, type Seg } from './classes.ts';
import { LayerCutter } from './layer-cuts.ts';
import { sharedRulesModel } from './shared-rules.ts';
import { plural } from '../view-models/format.ts';
import { classOf6, reachFrom6 } from './v6/partition6.ts';
import { otherFamilyOf } from './v6/sources6.ts';
import type { ReachFrom, ReachOptions } from './reach-types.ts';

export type { ReachClass, ReachProto } from './classes.ts';

export type { ReachFrom, ReachOptions } from './reach-types.ts';

export const DEFAULT_MAX_WALKS = 200_000;

/** The address pieces to walk again (a rule cut inside the interval), or the interval's port segments. */
type AtomResult = { ip: number[] } | { segs: Seg[]; cells: number };

export function reachFrom(node: NodeModel, srcIp: string, o: ReachOptions = {}): ReachFrom {
  // An IPv6 source: the IPv6 header space (v6/partition6.ts).
  if (ipToInt(srcIp) === undefined && srcIp.includes(':')) return reachFrom6(node, srcIp, o);
  const b = hnsBoundaries(node);
  // The same node, with the rules several ports print identically parsed once (shared-rules.ts).
  const m = sharedRulesModel(node);
  const cutter = new LayerCutter(m);
  const maxWalks = o.maxWalks ?? DEFAULT_MAX_WALKS;
  const t0 = o.now?.();
  let walks = 0;
  let hit: string | undefined;
  const walkOne = o.walk ?? ((f: Flow) => walkFlow(m, f, { reply: true }));
  // The walks of the cell being decided: their paths say which layers' rules can split it.
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
  const v6 = otherFamilyOf(node, srcIp);
  const limitations: string[] = [v6 ? `the header space is IPv4; this source's IPv6 side: reach --from ${v6}` : 'the header space is IPv4; IPv6 destinations are partitioned from an IPv6 source (reach --from an IPv6 address)'];
  if (ipToInt(srcIp) === undefined) return { from: srcIp, classes, cells, walks, budget: { maxWalks, hit: false }, limitations: [...limitations, `${srcIp} is not an IPv4 address`] };

  const cellOutcome = (f: Flow): Outcome => {
    if (!hit && walks >= maxWalks) hit = `the budget of ${maxWalks} walks was spent`;
    if (!hit && o.now && o.maxMs !== undefined && o.now() - t0! > o.maxMs) hit = `the time budget of ${o.maxMs} ms was spent`;
    if (hit) return skipped(`not walked: ${hit}`);
    return outcomeOf(m, f, counted).outcome;
  };

  /** Walks an address interval's port cells, splitting each where the rules on its path cut it. */
  const walkAtom = (a: Interval, proto: ReachProto, portAtoms: (Interval | null)[]): AtomResult => {
    const dstIp = intToIp(middle(a));
    const segs: Seg[] = [];
    let n = 0;
    const cell = (pa: Interval | null): number[] | undefined => {
      const example: Flow = { srcIp, dstIp, proto: proto as Proto, ...(pa ? { dstPort: middle(pa) } : {}) };
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
    const merger = new ClassMerger(proto, classes);
    b.ipAtoms.forEach((atom, i) => {
      const portAtoms = proto === 'icmp' ? [null] : b.portAtoms(i, proto);
      // Address intervals still to walk, the next one last.
      const todo: Interval[] = [atom];
      while (todo.length) {
        const a = todo.pop()!;
        const r = walkAtom(a, proto, portAtoms);
        if ('ip' in r) {
          // A rule on the path tells addresses of the interval apart: walk each piece on its own.
          const starts = [a.lo, ...r.ip];
          const pieces = starts.map((lo, k) => {
            const next = starts[k + 1];
            return { lo, hi: next !== undefined ? next - 1 : a.hi };
          });
          for (const piece of pieces.reverse()) todo.push(piece);
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

/** The class holding a packet (classes partition the space, so there is exactly one). */
export function classOf(r: ReachFrom, dstIp: string, proto: ReachProto, dstPort?: number): ReachClass | undefined {
  if (ipToInt(dstIp) === undefined && dstIp.includes(':')) return classOf6(r, dstIp, proto, dstPort);
  const n = ipToInt(dstIp);
  if (n === undefined) return undefined;
  return r.classes.find((c) => c.proto === proto && ipToInt(c.dst[0])! <= n && n <= ipToInt(c.dst[1])! && (c.ports === null || (dstPort !== undefined && c.ports[0] <= dstPort && dstPort <= c.ports[1])));
}
