// Groups search hits by kind for the palette. The groups are ordered by their best hit and hits by
// score, so the first hit shown is the best one overall — Enter on a fresh query opens it.
import type { SearchHit } from '../../../analysis/view-models/types.ts';

export interface HitGroup {
  key: string;
  title: string;
  hits: { hit: SearchHit; index: number }[];
}

const TITLES: Record<string, string> = {
  endpoint: 'Endpoints',
  loadbalancer: 'Load balancers',
  network: 'Networks',
  namespace: 'Namespaces',
  compartment: 'Compartments',
  adapter: 'Adapters',
  port: 'VFP ports',
  route: 'Routes',
  'remote-subnet': 'Remote subnets',
  file: 'Files',
  node: 'Node',
  rule: 'VFP rules',
};

export function hitKind(h: SearchHit): string {
  return h.rule ? 'rule' : h.ref.type;
}

export function groupHits(hits: SearchHit[]): { groups: HitGroup[]; flat: SearchHit[] } {
  const by = new Map<string, SearchHit[]>();
  // A stable sort keeps the backend's order among equal scores.
  const sorted = hits.map((h, i) => ({ h, i })).sort((a, b) => b.h.score - a.h.score || a.i - b.i);
  for (const { h } of sorted) {
    const k = hitKind(h);
    const list = by.get(k) ?? [];
    list.push(h);
    by.set(k, list);
  }
  const flat: SearchHit[] = [];
  const groups: HitGroup[] = [];
  for (const [key, list] of by) {
    groups.push({ key, title: TITLES[key] ?? key, hits: list.map((hit) => ({ hit, index: flat.push(hit) - 1 })) });
  }
  return { groups, flat };
}
