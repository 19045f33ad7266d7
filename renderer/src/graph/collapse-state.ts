// Which nodes of the topology are folded, as a set of node ids (a group hides its children, a host
// hides what is attached to it). Pure: views/topology/useCollapsedGroups.ts holds the set.
//
// By default the graph shows what a person can take in at once: a compartment holding one endpoint
// (every pod) is drawn as that endpoint, load-balancer groups are folded, and each pod's VFP port is
// folded into its endpoint. A compartment holding several endpoints (the host's, a multi-NIC pod)
// stays open: folding it would hide which addresses it has.
import type { TopologyGraph } from '../../../analysis/view-models/types.ts';
import { groupIds, hostIds } from './visible-graph.ts';

type Graph = Pick<TopologyGraph, 'nodes'>;

export function defaultCollapsed(g: Graph): Set<string> {
  const out = hostIds(g);
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const endpointsIn = new Map<string, number>();
  for (const n of g.nodes) if (n.parent && n.kind === 'endpoint') endpointsIn.set(n.parent, (endpointsIn.get(n.parent) ?? 0) + 1);
  for (const id of groupIds(g)) {
    const kind = byId.get(id)?.kind;
    if (kind === 'lb-group' || (kind === 'compartment' && (endpointsIn.get(id) ?? 0) <= 1)) out.add(id);
  }
  return out;
}

/** `id` folded if it was open, opened if it was folded. */
export function toggled(set: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Opens every id in `ids` (and keeps the rest as it was). */
export function opened(set: ReadonlySet<string>, ids: Iterable<string>): Set<string> {
  const next = new Set(set);
  for (const id of ids) next.delete(id);
  return next;
}

/** Folds every id in `ids` (and keeps the rest as it was). */
export function folded(set: ReadonlySet<string>, ids: Iterable<string>): Set<string> {
  const next = new Set(set);
  for (const id of ids) next.add(id);
  return next;
}

/** The groups (compartments, lb-groups) and the hosts of attached nodes (endpoints with a port), apart. */
export function foldable(g: Graph): { groups: Set<string>; hosts: Set<string> } {
  return { groups: groupIds(g), hosts: hostIds(g) };
}

/** A key naming a collapse state, for the layout cache: the folded ids in order. */
export function collapseKey(set: ReadonlySet<string>): string {
  return [...set].sort().join('\n');
}
