// Reachability from one source over the whole IPv4 header space (issue #25 point 1): the destination
// address atoms and, per atom, the destination port atoms of TCP and UDP (ICMP has no port) form
// cells no boundary splits; one example packet per cell is walked (walkFlow, its reply too); adjacent
// cells with the same outcome merge into classes — first along the ports of one address atom, then
// address atoms whose port partitions and outcomes are identical. Every cell is walked, so a class's
// outcome is its example's walk, and the same as every other cell's of the class.
// Bounded: at most `maxWalks` walks (and `maxMs` when a clock is given); cells beyond that are
// reported as "insufficient information" and the result says the budget was hit.
import type { NodeModel } from '../../parsers/model/types.ts';
import { intToIp, ipToInt } from '../walk/ip.ts';
import type { Flow, Proto, WalkResult } from '../walk/types.ts';
import { walkFlow } from '../walk/engine.ts';
import { boundaries } from './boundaries.ts';
import { middle, type Interval } from './intervals.ts';
import { outcomeOf, type Outcome } from './outcome.ts';

export type ReachProto = 'tcp' | 'udp' | 'icmp';

export interface ReachClass extends Omit<Outcome, 'key'> {
  dst: [string, string];
  ports: [number, number] | null;
  proto: ReachProto;
  example: { dstIp: string; dstPort?: number; proto: ReachProto };
  /** Cells (walked examples) merged into this class. */
  cells: number;
  /** Internal: the outcome key (dropped from JSON). */
  key: string;
}

export interface ReachOptions {
  maxWalks?: number;
  maxMs?: number;
  now?: () => number;
  protos?: ReachProto[];
  /** Walk function (tests count walks); default walkFlow with the reply. */
  walk?: (f: Flow) => WalkResult;
}

export interface ReachFrom {
  from: string;
  classes: ReachClass[];
  cells: number;
  walks: number;
  budget: { maxWalks: number; hit: boolean; note?: string };
  limitations: string[];
}

export const DEFAULT_MAX_WALKS = 200_000;

interface Seg {
  ports: Interval | null;
  example: Flow;
  outcome: Outcome;
}

const skipped = (why: string): Outcome => ({ verdict: 'insufficient information', decidingRule: null, decidedAt: 'not walked', reason: why, rewrites: [], reply: null, key: `skipped:${why}` });

export function reachFrom(m: NodeModel, srcIp: string, o: ReachOptions = {}): ReachFrom {
  const b = boundaries(m);
  const maxWalks = o.maxWalks ?? DEFAULT_MAX_WALKS;
  const t0 = o.now?.();
  let walks = 0;
  let hit: string | undefined;
  const walkOne = o.walk ?? ((f: Flow) => walkFlow(m, f, { reply: true }));
  const counted = (f: Flow) => {
    walks++;
    return walkOne(f);
  };
  const protos = o.protos ?? ['tcp', 'udp', 'icmp'];
  const classes: ReachClass[] = [];
  let cells = 0;
  const limitations: string[] = ['IPv6 destinations are not partitioned (the header space is IPv4); trace walks IPv6 packets one at a time'];
  if (b.srcPortRules) limitations.push(`${b.srcPortRules} rule(s) compare the source port; every class is walked with the source port the walk assumes (49152)`);
  if (ipToInt(srcIp) === undefined) return { from: srcIp, classes, cells, walks, budget: { maxWalks, hit: false }, limitations: [...limitations, `${srcIp} is not an IPv4 address`] };

  const cellOutcome = (f: Flow): Outcome => {
    if (!hit && walks >= maxWalks) hit = `the budget of ${maxWalks} walks was spent`;
    if (!hit && o.now && o.maxMs !== undefined && o.now() - t0! > o.maxMs) hit = `the time budget of ${o.maxMs} ms was spent`;
    if (hit) return skipped(`not walked: ${hit}`);
    return outcomeOf(m, f, counted).outcome;
  };

  for (const proto of protos) {
    // Per address atom, its merged port segments; consecutive atoms with the same segments merge.
    let run: { lo: number; hi: number; segs: Seg[]; sig: string; cells: number } | undefined;
    const flush = () => {
      if (!run) return;
      for (const s of run.segs) {
        const { key, ...rest } = s.outcome;
        classes.push({
          ...rest,
          key,
          dst: [intToIp(run.lo), intToIp(run.hi)],
          ports: s.ports ? [s.ports.lo, s.ports.hi] : null,
          proto,
          example: { dstIp: s.example.dstIp, ...(s.example.dstPort !== undefined ? { dstPort: s.example.dstPort } : {}), proto },
          cells: run.cells,
        });
      }
      run = undefined;
    };
    b.ipAtoms.forEach((atom, i) => {
      const dstIp = intToIp(middle(atom));
      const segs: Seg[] = [];
      const portAtoms = proto === 'icmp' ? [null] : b.portAtoms(i, proto);
      for (const pa of portAtoms) {
        cells++;
        const example: Flow = { srcIp, dstIp, proto: proto as Proto, ...(pa ? { dstPort: middle(pa) } : {}) };
        const out = cellOutcome(example);
        const last = segs[segs.length - 1];
        if (last && pa && last.ports && last.outcome.key === out.key && last.ports.hi + 1 === pa.lo) last.ports = { lo: last.ports.lo, hi: pa.hi };
        else segs.push({ ports: pa ? { ...pa } : null, example, outcome: out });
      }
      const sig = segs.map((s) => `${s.ports ? `${s.ports.lo}-${s.ports.hi}` : ''}=${s.outcome.key}`).join('\n\n');
      if (run && run.sig === sig && run.hi + 1 === atom.lo) {
        run.hi = atom.hi;
        run.cells += portAtoms.length;
      } else {
        flush();
        run = { lo: atom.lo, hi: atom.hi, segs, sig, cells: portAtoms.length };
      }
    });
    flush();
  }
  return { from: srcIp, classes, cells, walks, budget: { maxWalks, hit: !!hit, ...(hit ? { note: `${hit}: the cells after it are "insufficient information"` } : {}) }, limitations };
}

/** The class holding a packet (classes partition the space, so there is exactly one). */
export function classOf(r: ReachFrom, dstIp: string, proto: ReachProto, dstPort?: number): ReachClass | undefined {
  const n = ipToInt(dstIp);
  if (n === undefined) return undefined;
  return r.classes.find((c) => c.proto === proto && ipToInt(c.dst[0])! <= n && n <= ipToInt(c.dst[1])! && (c.ports === null || (dstPort !== undefined && c.ports[0] <= dstPort && dstPort <= c.ports[1])));
}
