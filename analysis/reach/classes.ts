// The shape of one source's classes and how cells merge into them (issue #25 point 1): adjacent port
// segments of one address interval with the same outcome merge; then consecutive address intervals
// whose whole port split and outcomes are identical. Shared by `reachFrom` (cells split where the rules
// on their path say) and `reachFromCells` (every atomic cell walked: the oracle its tests compare with),
// for either address family (family.ts: `print` is its address text).
import type { Flow } from '../walk/types.ts';
import { succ, type Interval } from './intervals.ts';
import type { Outcome } from './outcome.ts';

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

export interface Seg {
  ports: Interval | null;
  example: Flow;
  outcome: Outcome;
}

export const skipped = (why: string): Outcome => ({ verdict: 'insufficient information', decidingRule: null, decidedAt: 'not walked', reason: why, rewrites: [], reply: null, key: `skipped:${why}` });

/** Appends a cell to an address interval's segments, merging it with the previous one when they agree. */
export function pushSeg(segs: Seg[], ports: Interval | null, example: Flow, outcome: Outcome): void {
  const last = segs[segs.length - 1];
  if (last && ports && last.ports && last.outcome.key === outcome.key && last.ports.hi + 1 === ports.lo) last.ports = { lo: last.ports.lo, hi: ports.hi };
  else segs.push({ ports: ports ? { ...ports } : null, example, outcome });
}

/** Collects one protocol's address intervals in order and merges consecutive ones that agree. */
export class ClassMerger<A extends number | bigint> {
  private run: { lo: A; hi: A; segs: Seg[]; sig: string; cells: number } | undefined;
  constructor(
    private readonly print: (a: A) => string,
    private readonly proto: ReachProto,
    private readonly out: ReachClass[],
  ) {}

  add(lo: A, hi: A, segs: Seg[], cells: number): void {
    const sig = segs.map((s) => `${s.ports ? `${s.ports.lo}-${s.ports.hi}` : ''}=${s.outcome.key}`).join('\n\n');
    const run = this.run;
    if (run && run.sig === sig && succ(run.hi) === lo) {
      run.hi = hi;
      run.cells += cells;
    } else {
      this.flush();
      this.run = { lo, hi, segs, sig, cells };
    }
  }

  flush(): void {
    const run = this.run;
    if (!run) return;
    for (const s of run.segs) {
      const { key, ...rest } = s.outcome;
      this.out.push({
        ...rest,
        key,
        dst: [this.print(run.lo), this.print(run.hi)],
        ports: s.ports ? [s.ports.lo, s.ports.hi] : null,
        proto: this.proto,
        example: { dstIp: s.example.dstIp, ...(s.example.dstPort !== undefined ? { dstPort: s.example.dstPort } : {}), proto: this.proto },
        cells: run.cells,
      });
    }
    this.run = undefined;
  }
}
