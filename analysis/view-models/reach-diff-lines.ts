// Compare's list of reachability changes as lines to draw: every change that passes the filters (the
// kind of change, the verdict it became, words), grouped by source and then by destination kind, each
// group headed by a line with its count. The list is virtualised (renderer/src/compare), so nothing is
// cut: a header line is not a change, and `at` numbers the changes in the order shown (the keyboard
// moves over them). Pure: unit-tested without a DOM.
import type { ReachVerdict } from '../reach/index.ts';
import { DESTINATION_KINDS, type DestinationKind } from './reach-change-destination.ts';
import { changeSource, filterChanges, type ReachChangeFilter, type ReachChangeLine } from './reach-diff-view.ts';

/** "Became dropped" and the others: the verdict after, among changes whose verdict changed; 'same' keeps the others (rule or reply changed). */
export type BecameFilter = 'any' | 'same' | ReachVerdict;

export interface ReachDiffFilters {
  kind: ReachChangeFilter;
  became: BecameFilter;
  query: string;
}

export type ReachDiffLine =
  | { type: 'source'; key: string; title: string; count: number }
  | { type: 'destination'; key: string; kind: DestinationKind; title: string; count: number }
  | { type: 'change'; key: string; change: ReachChangeLine; at: number };

export function becameOf(c: ReachChangeLine): BecameFilter {
  return c.before.verdict === c.after.verdict ? 'same' : c.after.verdict;
}

/** The "became …" choices the changes offer, with their counts, most frequent first ('same' last). */
export function becameChoices(changes: readonly ReachChangeLine[]): { became: BecameFilter; count: number }[] {
  const n = new Map<BecameFilter, number>();
  for (const c of changes) n.set(becameOf(c), (n.get(becameOf(c)) ?? 0) + 1);
  return [...n].map(([became, count]) => ({ became, count })).sort((a, b) => Number(a.became === 'same') - Number(b.became === 'same') || b.count - a.count || String(a.became).localeCompare(String(b.became)));
}

export function becameLabel(b: BecameFilter): string {
  return b === 'any' ? 'Any verdict' : b === 'same' ? 'Same verdict, other change' : `Became ${b}`;
}

/** The changes the filters keep, in the order of the source lists (kept stable from the worker). */
export function filterReachDiff(changes: readonly ReachChangeLine[], f: ReachDiffFilters): ReachChangeLine[] {
  const kept = filterChanges(changes, f.kind, f.query) as ReachChangeLine[];
  return f.became === 'any' ? kept : kept.filter((c) => becameOf(c) === f.became);
}

const ORDER = new Map(DESTINATION_KINDS.map((k, i) => [k.kind, i]));
const TITLE = new Map(DESTINATION_KINDS.map((k) => [k.kind, k.title]));

/** The lines: per source (in the order they come), per destination kind (in DESTINATION_KINDS' order), the changes. */
export function reachDiffLines(changes: readonly ReachChangeLine[]): ReachDiffLine[] {
  const bySource = new Map<string, Map<DestinationKind, ReachChangeLine[]>>();
  for (const c of changes) {
    const s = changeSource(c);
    let kinds = bySource.get(s);
    if (!kinds) bySource.set(s, (kinds = new Map()));
    const k = c.to?.kind ?? 'other';
    const list = kinds.get(k);
    if (list) list.push(c);
    else kinds.set(k, [c]);
  }
  const out: ReachDiffLine[] = [];
  let at = 0;
  for (const [source, kinds] of bySource) {
    out.push({ type: 'source', key: `s:${source}`, title: source, count: [...kinds.values()].reduce((n, l) => n + l.length, 0) });
    for (const [kind, list] of [...kinds].sort((a, b) => (ORDER.get(a[0]) ?? 99) - (ORDER.get(b[0]) ?? 99))) {
      out.push({ type: 'destination', key: `d:${source}|${kind}`, kind, title: TITLE.get(kind) ?? kind, count: list.length });
      for (const c of list) out.push({ type: 'change', key: `c:${at}`, change: c, at: at++ });
    }
  }
  return out;
}
