// IPv6 address intervals merged into classes: classes.ts's ClassMerger over 128-bit addresses (the
// same rule: consecutive address intervals whose whole port split and outcomes are identical merge).
import type { ReachClass, ReachProto, Seg } from '../classes.ts';
import { bigToIp6 } from './addr6.ts';

export class ClassMerger6 {
  private run: { lo: bigint; hi: bigint; segs: Seg[]; sig: string; cells: number } | undefined;
  constructor(
    private readonly proto: ReachProto,
    private readonly out: ReachClass[],
  ) {}

  add(lo: bigint, hi: bigint, segs: Seg[], cells: number): void {
    const sig = segs.map((s) => `${s.ports ? `${s.ports.lo}-${s.ports.hi}` : ''}=${s.outcome.key}`).join('\n\n');
    const run = this.run;
    if (run && run.sig === sig && run.hi + 1n === lo) {
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
        dst: [bigToIp6(run.lo), bigToIp6(run.hi)],
        ports: s.ports ? [s.ports.lo, s.ports.hi] : null,
        proto: this.proto,
        example: { dstIp: s.example.dstIp, ...(s.example.dstPort !== undefined ? { dstPort: s.example.dstPort } : {}), proto: this.proto },
        cells: run.cells,
      });
    }
    this.run = undefined;
  }
}
