// Atomic intervals of one dimension (an IPv4 address as a uint32 number, an IPv6 address as a bigint,
// or a port): the cut points every boundary contributes, and the maximal intervals between them. Two
// values in one atom are distinguished by no boundary, so whatever reads only those boundaries treats
// them alike. Written once for both number types: the comparison operators work on either, and the
// steps (the value after, the value before) are `succ` and `pred`.

export interface Interval<A extends number | bigint = number> {
  lo: A;
  hi: A;
}

/** Numeric order of two values of one type (a sort comparator for numbers and bigints alike). */
export const byValue = <A extends number | bigint>(x: A, y: A): number => (x < y ? -1 : x > y ? 1 : 0);

/** The value after `a`, in its own number type. */
export const succ = <A extends number | bigint>(a: A): A => (typeof a === 'bigint' ? a + 1n : (a as number) + 1) as A;
/** The value before `a`, in its own number type. */
export const pred = <A extends number | bigint>(a: A): A => (typeof a === 'bigint' ? a - 1n : (a as number) - 1) as A;

/**
 * Collects cut points: `add(lo, hi)` says that [lo, hi] is distinguished from its neighbours, so an
 * atom starts at lo and another right after hi. Values are clamped to [min, max].
 */
export class Cuts<A extends number | bigint = number> {
  private readonly starts = new Set<A>();
  constructor(
    readonly min: A,
    readonly max: A,
  ) {
    this.starts.add(min);
  }

  add(lo: A, hi: A): void {
    const x = lo < hi ? lo : hi;
    const y = lo < hi ? hi : lo;
    if (x > this.max || y < this.min) return;
    const a = x < this.min ? this.min : x;
    const b = y > this.max ? this.max : y;
    this.starts.add(a);
    if (b < this.max) this.starts.add(succ(b));
  }

  addAll(other: Cuts<A>): void {
    for (const s of other.starts) if (s >= this.min && s <= this.max) this.starts.add(s);
  }

  get size(): number {
    return this.starts.size;
  }

  /** The atoms, in order; they partition [min, max]. */
  atoms(): Interval<A>[] {
    const s = [...this.starts].sort(byValue);
    const out: Interval<A>[] = [];
    for (let i = 0; i < s.length; i++) {
      const next = s[i + 1];
      out.push({ lo: s[i]!, hi: next !== undefined ? pred(next) : this.max });
    }
    return out;
  }
}

/** Index of the atom holding v (atoms sorted, contiguous). */
export function atomIndex<A extends number | bigint>(atoms: readonly Interval<A>[], v: A): number {
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
