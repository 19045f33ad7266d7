// Filtering and sorting of inventory rows. Pure (unit-tested): numbers and IPs sort by value
// (10.244.0.10 after 10.244.0.9), the filter matches any cell or flag, case-insensitively.
import type { InventoryRow, InventoryTable } from '../../../analysis/view-models/types.ts';
import type { InspectCounts } from '../../../analysis/inspect.ts';

export interface SortState {
  key: string;
  dir: 'asc' | 'desc';
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export function filterRows(rows: InventoryRow[], filter: string): InventoryRow[] {
  const terms = filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!terms.length) return rows;
  return rows.filter((r) => {
    const hay = `${Object.values(r.cells).join(' ')} ${(r.flags ?? []).join(' ')}`.toLowerCase();
    return terms.every((t) => hay.includes(t));
  });
}

export function sortRows(rows: InventoryRow[], sort: SortState | undefined): InventoryRow[] {
  if (!sort) return rows;
  const sign = sort.dir === 'asc' ? 1 : -1;
  // Empty cells last whatever the direction: they are "unknown", not "smallest".
  return [...rows].sort((a, b) => {
    const x = a.cells[sort.key] ?? '';
    const y = b.cells[sort.key] ?? '';
    if (!x !== !y) return x ? -1 : 1;
    return sign * collator.compare(x, y);
  });
}

/** Which count says whether a table's source was in the bundle, and what that source is. */
export const TABLE_SOURCE: Record<InventoryTable['key'], { count: keyof InspectCounts; file: string; noun: string }> = {
  endpoints: { count: 'endpoints', file: 'endpoint.txt', noun: 'HNS endpoints' },
  services: { count: 'loadBalancers', file: 'policy.txt', noun: 'load balancers' },
  ports: { count: 'vfpPorts', file: 'ports.txt and vfpOutput.txt', noun: 'VFP ports' },
  routes: { count: 'ipv4Routes', file: 'routes.txt', noun: 'routes' },
  networks: { count: 'networks', file: 'network.txt', noun: 'HNS networks' },
  compartments: { count: 'compartments', file: 'ip.txt', noun: 'compartments' },
};

/** The sentence shown when a table is empty: a missing file is said differently from "none". */
export function emptyTableMessage(key: InventoryTable['key'], counts: InspectCounts | undefined): string {
  const src = TABLE_SOURCE[key];
  if (counts && counts[src.count] === null) return `No ${src.noun} in this bundle: ${src.file} is missing.`;
  return `The bundle lists no ${src.noun}.`;
}
