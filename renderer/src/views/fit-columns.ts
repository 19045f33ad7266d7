// Inventory columns that fit the pane: when the columns' natural widths (their longest values) add up
// to more than the pane, the widest give way first, down to a floor each (its header whole, or its
// whole value when that is shorter), so no column hides behind a horizontal scroll at 1280×800. A cut
// cell ends in "…" and shows its whole value on hover (its title). Only when even the floors do not
// fit does the table scroll.

/** Widths no smaller than `floors`, no larger than `natural`, adding up to at most `available`. */
export function fitColumns(natural: readonly number[], floors: readonly number[], available: number): number[] {
  const floor = natural.map((n, i) => Math.min(n, floors[i] ?? n));
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  if (sum(natural) <= available) return [...natural];
  if (sum(floor) >= available) return floor;
  // One cap for every column: the largest whose capped widths still fit (the widest shrink first).
  let lo = 0;
  let hi = Math.max(...natural);
  const at = (cap: number) => natural.map((n, i) => Math.max(floor[i], Math.min(n, cap)));
  for (let k = 0; k < 40 && hi - lo > 0.5; k++) {
    const mid = (lo + hi) / 2;
    if (sum(at(mid)) <= available) lo = mid;
    else hi = mid;
  }
  return at(Math.floor(lo)).map(Math.floor);
}
