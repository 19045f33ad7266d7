// The graph under construction: nodes and edges with unique ids, edges only between nodes that exist.
// Ids are derived from model refs (never from positions), so the same bundle gives the same ids on
// every call and a selection survives a rebuild. Detail the UI draws folded until expanded (a pod's
// VFP port, the load balancers of a group) goes to `attached`, apart from `nodes`/`edges`, so
// pictures that draw every node (the report) are not crowded by it.
import type { ObjectRef, TopoEdge, TopoNode } from '../view-models/types.ts';

export type NewNode = Omit<TopoNode, 'flags' | 'details'> & { flags?: string[]; details?: string[] };

export class GraphBuilder {
  readonly nodes: TopoNode[] = [];
  readonly edges: TopoEdge[] = [];
  readonly attached: { nodes: TopoNode[]; edges: TopoEdge[] } = { nodes: [], edges: [] };
  private readonly byId = new Map<string, TopoNode>();
  private readonly edgeIds = new Set<string>();

  /** Adds a node; a second node with the same id is merged into the first (its details appended).
   *  `detail`: the node goes to `attached` (drawn folded until expanded). */
  node(n: NewNode, detail = false): TopoNode {
    const have = this.byId.get(n.id);
    if (have) {
      for (const d of n.details ?? []) if (!have.details.includes(d)) have.details.push(d);
      for (const f of n.flags ?? []) addFlag(have, f);
      return have;
    }
    const node: TopoNode = { ...n, details: n.details ?? [], flags: [] };
    for (const f of n.flags ?? []) addFlag(node, f);
    (detail ? this.attached.nodes : this.nodes).push(node);
    this.byId.set(node.id, node);
    return node;
  }

  get(id: string): TopoNode | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Adds an edge once per (kind, source, target); ignores edges to nodes that were not added.
   *  `detail`: the edge goes to `attached` (it joins a detail node). */
  edge(source: string, target: string, kind: TopoEdge['kind'], extra: { label?: string; broken?: boolean; summary?: boolean } = {}, detail = false): TopoEdge | undefined {
    if (source === target || !this.byId.has(source) || !this.byId.has(target)) return undefined;
    const id = `${kind}:${source}->${target}`;
    if (this.edgeIds.has(id)) return undefined;
    this.edgeIds.add(id);
    const e: TopoEdge = { id, source, target, kind };
    if (extra.label !== undefined) e.label = extra.label;
    if (extra.broken) e.broken = true;
    if (extra.summary) e.summary = true;
    (detail ? this.attached.edges : this.edges).push(e);
    return e;
  }
}

export function addFlag(n: TopoNode, flag: string): void {
  if (!n.flags.includes(flag)) n.flags.push(flag);
}

export function addCopy(n: TopoNode, label: string, value: string | undefined): void {
  if (!value) return;
  n.copy ??= [];
  if (!n.copy.some((c) => c.label === label && c.value === value)) n.copy.push({ label, value });
}

/** Node id of a model object: the ref key, so ids are unique per object and stable. */
export const idOf = (ref: ObjectRef): string => `${ref.type}:${ref.id}`;
