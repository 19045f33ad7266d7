// The diff view's pure helpers: filtering a DiffResult by kind and text, counting, formatting counter
// deltas. No DOM: unit-tested.
import type { CounterDelta, DiffKind, DiffResult, DiffSection, RuleCounters } from '../../../analysis/diff/types.ts';

export const DIFF_KINDS: { kind: DiffKind; label: string }[] = [
  { kind: 'network', label: 'Networks' },
  { kind: 'endpoint', label: 'Endpoints' },
  { kind: 'loadbalancer', label: 'Load balancers' },
  { kind: 'route', label: 'Routes' },
  { kind: 'port', label: 'VFP ports' },
  { kind: 'rule', label: 'VFP rules' },
];

export function sectionChanges(s: Pick<DiffSection, 'added' | 'removed' | 'changed'>): number {
  return s.added.length + s.removed.length + s.changed.length;
}

/** Nothing added, removed or changed, no counter moved, no finding appeared or disappeared. */
export function isIdentical(r: DiffResult): boolean {
  return r.sections.every((s) => sectionChanges(s) === 0) && r.counters.length === 0 && r.findings.appeared.length === 0 && r.findings.disappeared.length === 0;
}

function hit(q: string, ...texts: (string | undefined)[]): boolean {
  return !q || texts.some((t) => t?.toLowerCase().includes(q));
}

export interface DiffFilter {
  /** Kinds to show; empty = all. */
  kinds: ReadonlySet<DiffKind>;
  /** Hide sections with nothing added, removed or changed. */
  onlyChanged: boolean;
  query: string;
}

export interface FilteredDiff {
  sections: DiffSection[];
  counters: CounterDelta[];
  appeared: DiffResult['findings']['appeared'];
  disappeared: DiffResult['findings']['disappeared'];
  /** Items matching the filter (for "n shown"). */
  shown: number;
}

export function filterDiff(r: DiffResult, f: DiffFilter): FilteredDiff {
  const q = f.query.trim().toLowerCase();
  const kindOn = (k: DiffKind) => f.kinds.size === 0 || f.kinds.has(k);
  const sections = r.sections
    .filter((s) => kindOn(s.kind))
    .map((s) => ({
      ...s,
      added: s.added.filter((o) => hit(q, o.key, o.label)),
      removed: s.removed.filter((o) => hit(q, o.key, o.label)),
      changed: s.changed.filter((c) => hit(q, c.key, c.label, ...c.fields.flatMap((x) => [x.field, x.a, x.b]))),
    }))
    .filter((s) => (f.onlyChanged || q ? sectionChanges(s) > 0 || (!q && !!s.skipped) : true));
  const counters = kindOn('rule') ? r.counters.filter((c) => hit(q, c.key, c.label)) : [];
  const appeared = r.findings.appeared.filter((x) => hit(q, x.id, x.title, ...x.objects));
  const disappeared = r.findings.disappeared.filter((x) => hit(q, x.id, x.title, ...x.objects));
  const shown = sections.reduce((n, s) => n + sectionChanges(s), 0) + counters.length + appeared.length + disappeared.length;
  return { sections, counters, appeared, disappeared, shown };
}

export const COUNTER_LABEL: Record<keyof RuleCounters, string> = {
  matchedPackets: 'matched packets',
  droppedPackets: 'dropped packets',
  pendingPackets: 'pending packets',
  droppedFlows: 'dropped flows',
};

export function signed(n: number): string {
  return n > 0 ? `+${n.toLocaleString('en-US')}` : n < 0 ? `−${Math.abs(n).toLocaleString('en-US')}` : '0';
}

/** The counters of one rule that moved: label, before, after, delta. */
export function counterRows(c: CounterDelta): { key: keyof RuleCounters; label: string; a?: number; b?: number; delta: number }[] {
  return (Object.keys(COUNTER_LABEL) as (keyof RuleCounters)[])
    .filter((k) => c.delta[k] !== undefined && c.delta[k] !== 0)
    .map((k) => ({ key: k, label: COUNTER_LABEL[k], a: c.a[k], b: c.b[k], delta: c.delta[k]! }));
}

/** VFP rule keys are `port/layer/group/rule`: the port (for grouping rules per port). */
export function rulePort(key: string): string {
  const i = key.indexOf('/');
  return i < 0 ? key : key.slice(0, i);
}

/** Groups items by rulePort of their key, keeping order. */
export function byPort<T extends { key: string }>(items: readonly T[]): { port: string; items: T[] }[] {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const p = rulePort(it.key);
    const list = m.get(p);
    if (list) list.push(it);
    else m.set(p, [it]);
  }
  return [...m].map(([port, list]) => ({ port, items: list }));
}
