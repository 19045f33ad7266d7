// Reachability from one source over the whole header space of its family (issue #25 points 1 and 7):
// IPv4 for an IPv4 source, IPv6 for an IPv6 one, with one algorithm over the family's address type
// (family.ts: IPv4 on numbers, IPv6 on bigints). The header space is destination address × destination
// port (TCP, UDP; ICMP has none) per protocol. It starts cut only where the node's tables tell packets
// apart (HNS, routes, addresses, load balancers: the family's hnsBoundaries), and a cell is split
// further only where a rule of a VFP layer its walks crossed tells its packets apart (layer-cuts.ts): a
// source pod's OUT layers see every cell, a destination pod's IN layers only the cells that reach that
// pod. One example per cell is walked (walkFlow, its reply too, every backend of a load balancer); a
// cell no cut falls inside is final, and its outcome is its example's walk — the same for every packet
// of it. Adjacent final cells with the same outcome merge into classes (classes.ts). `reachFromCells`
// (partition-cells.ts) walks every atomic cell of every rule instead: the oracle the tests compare with.
// Bounded: at most `maxWalks` walks (and `maxMs` when a clock is given); cells beyond that are
// reported as "insufficient information" and the result says the budget was hit.
import type { NodeModel } from '../../parsers/model/types.ts';
import { ipToInt } from '../walk/ip.ts';
import type { Flow, Proto, WalkResult } from '../walk/types.ts';
import { walkFlow } from '../walk/engine.ts';
import { middle, pred, type Interval } from './intervals.ts';
import { outcomeOf, type Outcome } from './outcome.ts';
import { ClassMerger, pushSeg, skipped, type ReachClass, type ReachProto, type Seg } from './classes.ts';
import { LayerCutter } from './layer-cuts.ts';
import { sharedRulesModel } from './shared-rules.ts';
import { plural } from '../view-models/format.ts';
import type { AddrFamily } from './family.ts';
import { IPV4 } from './family-v4.ts';
import { IPV6 } from './v6/family6.ts';
import { otherFamilyOf } from './sources.ts';
import type { ReachFrom, ReachOptions } from './reach-types.ts';

export type { ReachClass, ReachProto } from './classes.ts';

export type { ReachFrom, ReachOptions } from './reach-types.ts';

export const DEFAULT_MAX_WALKS = 200_000;

/** The address pieces to walk again (a rule cut inside the interval), or the interval's port segments. */
type AtomResult<A> = { ip: A[] } | { segs: Seg[]; cells: number };

/** The family an address is read in: IPv6 when it is not IPv4 and has a colon, else IPv4 (which says when it is not one). */
const isV6 = (ip: string) => ipToInt(ip) === undefined && ip.includes(':');

export function reachFrom(node: NodeModel, srcIp: string, o: ReachOptions = {}): ReachFrom {
  return isV6(srcIp) ? partition(node, srcIp, IPV6, o) : partition(node, srcIp, IPV4, o);
}

function partition<A extends number | bigint>(node: NodeModel, srcIp: string, fam: AddrFamily<A>, o: ReachOptions): ReachFrom {
  const b = fam.hnsBoundaries(node);
  // The same node, with the rules several ports print identically parsed once (shared-rules.ts).
  const m = sharedRulesModel(node);
  const cutter = new LayerCutter(m, fam);
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
  const other = otherFamilyOf(node, srcIp);
  const limitations: string[] = [other ? `the header space is ${fam.name}; this source's ${fam.other} side: reach --from ${other}` : `the header space is ${fam.name}; ${fam.other} destinations are partitioned from an ${fam.other} source (reach --from an ${fam.other} address)`];
  if (fam.parse(srcIp) === undefined) return { from: srcIp, classes, cells, walks, budget: { maxWalks, hit: false }, limitations: [...limitations, `${srcIp} is not an ${fam.name} address`] };
  limitations.push(...fam.notes(node));

  const cellOutcome = (f: Flow): Outcome => {
    if (!hit && walks >= maxWalks) hit = `the budget of ${maxWalks} walks was spent`;
    if (!hit && o.now && o.maxMs !== undefined && o.now() - t0! > o.maxMs) hit = `the time budget of ${o.maxMs} ms was spent`;
    if (hit) return skipped(`not walked: ${hit}`);
    return outcomeOf(m, f, counted).outcome;
  };

  /** Walks an address interval's port cells, splitting each where the rules on its path cut it. */
  const walkAtom = (a: Interval<A>, proto: ReachProto, portAtoms: (Interval | null)[]): AtomResult<A> => {
    const dstIp = fam.print(fam.middle(a));
    const segs: Seg[] = [];
    let n = 0;
    const cell = (pa: Interval | null): A[] | undefined => {
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
    const merger = new ClassMerger(fam.print, proto, classes);
    b.ipAtoms.forEach((atom, i) => {
      const portAtoms = proto === 'icmp' ? [null] : b.portAtoms(i, proto);
      // Address intervals still to walk, the next one last.
      const todo: Interval<A>[] = [atom];
      while (todo.length) {
        const a = todo.pop()!;
        const r = walkAtom(a, proto, portAtoms);
        if ('ip' in r) {
          // A rule on the path tells addresses of the interval apart: walk each piece on its own.
          const starts = [a.lo, ...r.ip];
          for (let k = starts.length - 1; k >= 0; k--) {
            const next = starts[k + 1];
            todo.push({ lo: starts[k]!, hi: next !== undefined ? pred(next) : a.hi });
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

/** The class holding a packet (classes partition the space, so there is exactly one). */
export function classOf(r: ReachFrom, dstIp: string, proto: ReachProto, dstPort?: number): ReachClass | undefined {
  return isV6(dstIp) ? classIn(r, IPV6, dstIp, proto, dstPort) : classIn(r, IPV4, dstIp, proto, dstPort);
}

function classIn<A extends number | bigint>(r: ReachFrom, fam: AddrFamily<A>, dstIp: string, proto: ReachProto, dstPort?: number): ReachClass | undefined {
  const n = fam.parse(dstIp);
  if (n === undefined) return undefined;
  return r.classes.find((c) => {
    if (c.proto !== proto) return false;
    const lo = fam.parse(c.dst[0]);
    const hi = fam.parse(c.dst[1]);
    return lo !== undefined && hi !== undefined && lo <= n && n <= hi && (c.ports === null || (dstPort !== undefined && c.ports[0] <= dstPort && dstPort <= c.ports[1]));
  });
}
