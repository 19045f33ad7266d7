// TopologyGraph → React Flow nodes and edges. Pure: the view passes the visible graph (after
// collapsing) and the boxes from the layout; this decides node types, parents, sizes, edge styles
// and handles (also for the walk's jumps). What is selected or lit is marked in highlight-flow.ts.
import type { Edge, Node } from '@xyflow/react';
import type { TopoEdge, TopoNode } from '../../../analysis/view-models/types.ts';
import type { VisibleGraph } from './visible-graph.ts';
import type { Box } from './elk-graph.ts';

export interface TopoNodeData extends Record<string, unknown> {
  topo: TopoNode;
  /** A group whose children are drawn inside it. */
  openGroup: boolean;
  /** A group whose children are hidden: how many. */
  hiddenChildren?: number;
  /** On the walked path: the hop numbers (1-based) that light it, and whether the current hop does. */
  walk?: { hops: number[]; current: boolean };
}

export type FlowNode = Node<TopoNodeData>;
export type FlowEdge = Edge<{ kind: TopoEdge['kind']; broken?: boolean }>;

export const NODE_TYPE = 'topo';
export const GROUP_TYPE = 'topoGroup';

/** Edge kinds whose label is worth drawing on the canvas (others go to the inspector). */
const LABELLED: ReadonlySet<TopoEdge['kind']> = new Set(['encap', 'route']);

export function edgeClass(e: TopoEdge): string {
  return `edge-${e.kind}${e.broken ? ' edge-broken' : ''}`;
}

export function toFlow(vis: VisibleGraph, boxes: Record<string, Box>): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const byId = new Map(vis.nodes.map((n) => [n.id, n]));
  const depth = (n: TopoNode): number => {
    let d = 0;
    for (let p = n.parent; p && vis.openGroups.has(p) && d < 32; p = byId.get(p)?.parent) d++;
    return d;
  };
  const placed = vis.nodes.filter((n) => boxes[n.id]);
  // React Flow needs a parent before its children in the array.
  const ordered = placed.map((n) => ({ n, d: depth(n) })).sort((a, b) => a.d - b.d);
  const nodes: FlowNode[] = ordered.map(({ n }) => {
    const b = boxes[n.id];
    const open = vis.openGroups.has(n.id);
    const hidden = vis.collapsedGroups.get(n.id);
    const parentId = n.parent && vis.openGroups.has(n.parent) && boxes[n.parent] ? n.parent : undefined;
    const node: FlowNode = {
      id: n.id,
      type: open ? GROUP_TYPE : NODE_TYPE,
      position: { x: b.x, y: b.y },
      width: b.width,
      height: b.height,
      data: { topo: n, openGroup: open, ...(hidden !== undefined ? { hiddenChildren: hidden } : {}) },
      draggable: false,
      connectable: false,
      className: `kind-${n.kind}`,
      ...(open ? { zIndex: -1 } : {}),
    };
    if (parentId) node.parentId = parentId;
    return node;
  });
  const present = new Set(nodes.map((n) => n.id));
  const edges: FlowEdge[] = vis.edges
    .filter((e) => present.has(e.source) && present.has(e.target))
    .map((e) => {
      const edge: FlowEdge = {
        id: e.id,
        source: e.source,
        target: e.target,
        className: edgeClass(e),
        data: { kind: e.kind, ...(e.broken ? { broken: true } : {}) },
        focusable: false,
      };
      if (e.label && LABELLED.has(e.kind)) edge.label = e.label;
      return { ...edge, ...handlesFor(byId.get(e.source)?.rank, byId.get(e.target)?.rank) };
    });
  return { nodes, edges };
}

/** The handle pair of an edge: one pointing back to a column on its left leaves from the left. */
function handlesFor(sourceRank = 0, targetRank = 0): Pick<FlowEdge, 'sourceHandle' | 'targetHandle'> {
  const back = sourceRank > targetRank;
  return { sourceHandle: back ? 'back-out' : 'out', targetHandle: back ? 'back-in' : 'in' };
}

/** The walk's jumps between drawn nodes no drawn edge joins: dashed and animated, so the path reads
 *  end to end. Jumps to a node not drawn (no box yet) are left out. */
export function jumpEdges(
  jumps: readonly { id: string; source: string; target: string }[],
  vis: Pick<VisibleGraph, 'nodes'>,
  drawn: ReadonlySet<string>,
): FlowEdge[] {
  const rank = new Map(vis.nodes.map((n) => [n.id, n.rank]));
  return jumps
    .filter((j) => drawn.has(j.source) && drawn.has(j.target))
    .map((j) => ({
      id: j.id,
      source: j.source,
      target: j.target,
      ...handlesFor(rank.get(j.source), rank.get(j.target)),
      className: 'walk-edge walk-jump',
      animated: true,
      focusable: false,
      data: { kind: 'attach' },
    }));
}
