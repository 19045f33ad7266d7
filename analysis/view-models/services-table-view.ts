// What the Services table shows of its rows: sorted by a column, filtered by words and by state chips,
// grouped by namespace (groups fold), as one list of lines the renderer virtualises. Pure: the unit
// tests check it without a DOM.
import type { ServiceTableRow, ServiceTone } from './services-table.ts';

export type ServicesSortKey = 'namespace' | 'name' | 'port' | 'type' | 'vip' | 'backends' | 'policy' | 'state';
export interface ServicesSort {
  key: ServicesSortKey;
  dir: 'asc' | 'desc';
}

/** The state chips: a row matches a chip by its state; several chips widen the filter (or). */
export const SERVICE_CHIPS = ['not realised', 'no load balancer', 'stale', 'backends differ', 'rule missing', 'by design', 'insufficient information', 'realised'] as const;
export type ServiceChip = (typeof SERVICE_CHIPS)[number];

export interface ServicesFilter {
  text: string;
  chips: ReadonlySet<ServiceChip>;
}

export type ServicesLine =
  | { type: 'group'; namespace: string; rows: number; notRealised: number; collapsed: boolean }
  | { type: 'row'; row: ServiceTableRow };

export interface ServicesLines {
  lines: ServicesLine[];
  /** Rows that match the filter (folded ones included). */
  shown: number;
  total: number;
  /** Rows per chip, over all rows (so a chip says what it would show). */
  chipCounts: Record<ServiceChip, number>;
}

export const DEFAULT_SORT: ServicesSort = { key: 'state', dir: 'asc' };

export function chipMatches(chip: ServiceChip, r: ServiceTableRow): boolean {
  switch (chip) {
    case 'not realised':
      return r.tone === 'bad';
    case 'no load balancer':
      return r.state === 'no load balancer';
    case 'stale':
      return r.state === 'stale backends';
    case 'backends differ':
      return r.state === 'missing backends';
    case 'rule missing':
      return r.state === 'vfp rule missing' || r.state === 'node port rule missing' || r.warning === 'hairpin rule missing';
    case 'by design':
      return r.tone === 'design';
    case 'insufficient information':
      return r.tone === 'unknown';
    case 'realised':
      return r.tone === 'ok' || r.tone === 'warn';
  }
}

/** Faults first, then what cannot be decided, then what is so by design, then what is realised. */
const TONE_RANK: Record<ServiceTone, number> = { bad: 0, warn: 1, unknown: 2, design: 3, ok: 4 };

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const num = (a: number, b: number) => a - b;
/** IPv4 addresses in numeric order ('' — a node port row — last). */
const ipNum = (ip: string) => (ip ? ip.split('.').reduce((n, x) => n * 256 + (Number(x) || 0), 0) : Number.MAX_SAFE_INTEGER);

function compareBy(key: ServicesSortKey, a: ServiceTableRow, b: ServiceTableRow): number {
  switch (key) {
    case 'namespace':
      return text(a.namespace, b.namespace);
    case 'name':
      return text(a.name, b.name);
    case 'port':
      return num(a.port, b.port) || text(a.proto, b.proto);
    case 'type':
      return text(a.type, b.type);
    case 'vip':
      return num(ipNum(a.vip), ipNum(b.vip));
    case 'backends':
      // The gap between what the snapshot says and what HNS holds, then the count.
      return num(gap(a), gap(b)) || num(a.ready, b.ready);
    case 'policy':
      return text(policyText(a), policyText(b));
    case 'state':
      return num(TONE_RANK[a.tone], TONE_RANK[b.tone]) || text(a.stateText, b.stateText);
  }
}

const gap = (r: ServiceTableRow) => (r.hnsBackends === null ? r.ready : Math.abs(r.ready - r.hnsBackends));

/** `eTP Local · iTP Cluster`; the API's defaults (Cluster) are shown as such when the snapshot omits them. */
export function policyText(r: Pick<ServiceTableRow, 'externalTrafficPolicy' | 'internalTrafficPolicy' | 'type'>): string {
  const external = r.type === 'NodePort' || r.type === 'LoadBalancer' ? `eTP ${r.externalTrafficPolicy ?? 'Cluster'}` : '';
  return [external, `iTP ${r.internalTrafficPolicy ?? 'Cluster'}`].filter(Boolean).join(' · ');
}

/** The table's cells: `Local / Cluster` (external / internal; `—` where there is no external policy) and `2 / 3` (ready / in HNS; `none`: no load balancer). */
export function policyCell(r: Pick<ServiceTableRow, 'externalTrafficPolicy' | 'internalTrafficPolicy' | 'type'>): string {
  return `${r.type === 'NodePort' || r.type === 'LoadBalancer' ? (r.externalTrafficPolicy ?? 'Cluster') : '—'} / ${r.internalTrafficPolicy ?? 'Cluster'}`;
}
export const backendsCell = (r: Pick<ServiceTableRow, 'ready' | 'hnsBackends'>) => `${r.ready} / ${r.hnsBackends ?? 'none'}`;

/** `2 ready · 3 in HNS`, or `2 ready · no load balancer`. */
export function backendsText(r: Pick<ServiceTableRow, 'ready' | 'hnsBackends'>): string {
  return `${r.ready} ready · ${r.hnsBackends === null ? 'no load balancer' : `${r.hnsBackends} in HNS`}`;
}

/** The order of the rows: the chosen column, then namespace, name, port and where, so equal keys keep one order. */
export function sortRows(rows: readonly ServiceTableRow[], sort: ServicesSort): ServiceTableRow[] {
  const dir = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => dir * compareBy(sort.key, a, b) || text(a.namespace, b.namespace) || text(a.name, b.name) || num(a.port, b.port) || text(a.key, b.key));
}

function haystack(r: ServiceTableRow): string {
  return [`${r.namespace}/${r.name}`, r.where, `${r.port}/${r.proto}`, r.type, r.vip, r.stateText, policyText(r)].join(' ').toLowerCase();
}

/** Every word of the text is in the row (namespace/name, port, type, VIP, state, policies), and one of the chips (if any) matches. */
export function rowMatches(r: ServiceTableRow, filter: ServicesFilter): boolean {
  if (filter.chips.size && ![...filter.chips].some((c) => chipMatches(c, r))) return false;
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const h = haystack(r);
  return words.every((w) => h.includes(w));
}

/**
 * The lines of the table: rows that match, sorted, under one group line per namespace. Groups come in
 * the order of their first row (sorting by state brings the namespaces with faults up); a folded group
 * keeps its line and hides its rows.
 */
export function servicesLines(rows: readonly ServiceTableRow[], sort: ServicesSort, filter: ServicesFilter, collapsed: ReadonlySet<string>): ServicesLines {
  const chipCounts = Object.fromEntries(SERVICE_CHIPS.map((c) => [c, 0])) as Record<ServiceChip, number>;
  for (const r of rows) for (const c of SERVICE_CHIPS) if (chipMatches(c, r)) chipCounts[c]++;
  const matched = sortRows(rows.filter((r) => rowMatches(r, filter)), sort);
  const groups = new Map<string, ServiceTableRow[]>();
  for (const r of matched) {
    const g = groups.get(r.namespace);
    if (g) g.push(r);
    else groups.set(r.namespace, [r]);
  }
  const lines: ServicesLine[] = [];
  for (const [namespace, members] of groups) {
    const folded = collapsed.has(namespace);
    lines.push({ type: 'group', namespace, rows: members.length, notRealised: members.filter((r) => r.tone === 'bad').length, collapsed: folded });
    if (!folded) for (const row of members) lines.push({ type: 'row', row });
  }
  return { lines, shown: matched.length, total: rows.length, chipCounts };
}
