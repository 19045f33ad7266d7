// Atomic intervals of one dimension (an IPv4 address as uint32, or a port): the cut points every
// boundary contributes, and the maximal intervals between them. Two values in one atom are
// distinguished by no boundary, so whatever reads only those boundaries treats them alike.

export interface Interval {
  lo: number;
  hi: number;
}

/**
 * Collects cut points: `add(lo, hi)` says that [lo, hi] is distinguished from its neighbours, so an
 * atom starts at lo and another right after hi. Values are clamped to [min, max].
 */
export class Cuts {
  private readonly starts = new Set<number>();
  constructor(
    readonly min: number,
    readonly max: number,
  ) {
    this.starts.add(min);
  }

  add(lo: number, hi: number): void {
    const a = Math.max(this.min, Math.min(lo, hi));
    const b = Math.min(this.max, Math.max(lo, hi));
    if (a > this.max || b < this.min) return;
    this.starts.add(a);
    if (b < this.max) this.starts.add(b + 1);
  }

  addAll(other: Cuts): void {
    for (const s of other.starts) if (s >= this.min && s <= this.max) this.starts.add(s);
  }

  get size(): number {
    return this.starts.size;
  }

  /** The atoms, in order; they partition [min, max]. */
  atoms(): Interval[] {
    const s = [...this.starts].sort((x, y) => x - y);
    return s.map((lo, i) => {
      const next = s[i + 1];
      return { lo, hi: next !== undefined ? next - 1 : this.max };
    });
  }
}

/** Index of the atom holding v (atoms sorted, contiguous). */
export function atomIndex(atoms: readonly Interval[], v: number): number {
  let lo = 0;
  let hi = atoms.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const atom = atoms[mid];
    if (atom !== undefined && atom.lo <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A value inside the interval a reader recognises as typical: its middle (never a range's edge, 0 or a broadcast). */
export function middle(i: Interval): number {
  return i.lo + Math.floor((i.hi - i.lo) / 2);
}
