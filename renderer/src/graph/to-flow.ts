// TopologyGraph → React Flow nodes and edges. Pure: the view passes the visible graph (after
// folding) and the boxes from the layout; this decides node types, parents, sizes, what a folded
// node stands for, edge styles and which sides edges leave and enter by (also for the walk's jumps).
// What is selected, lit or faulty is marked in highlight-flow.ts.
import type { Edge, Node } from '@xyflow/react';
import type { TopoEdge, TopoNode } from '../../../analysis/view-models/types.ts';
import type { VisibleGraph } from './visible-graph.ts';
import type { Box } from './elk-graph.ts';
import type { FaultMark } from './fault-marks.ts';
import { absoluteBox } from './viewport.ts';
import { kindInfo } from './kinds.ts';

export interface TopoNodeData extends Record<string, unknown> {
  topo: TopoNode;
  /** A group whose children are drawn inside it. */
  openGroup: boolean;
  /** A group whose children are hidden: how many nodes it hides. */
  hiddenChildren?: number;
  /** The folded compartment this endpoint is drawn without (a pod's). */
  frame?: TopoNode;
  /** Nodes attached to this one and folded into it (a pod endpoint's VFP port). */
  folded?: TopoNode[];
  /** Its attached nodes are drawn (the port is open). */
  unfolded?: boolean;
  /** The findings about it (highlight-flow.ts). */
  fault?: FaultMark;
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

/** What a node says to a screen reader. */
export function nodeAriaLabel(n: TopoNode, frame?: TopoNode): string {
  const k = kindInfo(n.kind).label;
  return `${k} ${n.label}${frame ? ` (in ${frame.label})` : ''}${n.flags.length ? `, ${n.flags.join(', ')}` : ''}`;
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
    const frame = vis.frameless.get(n.id);
    const folded = vis.folded.get(n.id);
    const parentId = n.parent && vis.openGroups.has(n.parent) && boxes[n.parent] ? n.parent : undefined;
    const data: TopoNodeData = { topo: n, openGroup: open };
    if (hidden !== undefined) data.hiddenChildren = hidden;
    if (frame) data.frame = frame;
    if (folded?.length) data.folded = folded;
    if (vis.unfolded.has(n.id)) data.unfolded = true;
    const node: FlowNode = {
      id: n.id,
      type: open ? GROUP_TYPE : NODE_TYPE,
      position: { x: b.x, y: b.y },
      width: b.width,
      height: b.height,
      data,
      draggable: false,
      connectable: false,
      className: `kind-${n.kind}`,
      ariaLabel: nodeAriaLabel(n, frame),
      ...(open ? { zIndex: -1 } : {}),
    };
    if (parentId) node.parentId = parentId;
    return node;
  });
  const present = new Set(nodes.map((n) => n.id));
  const at = (id: string) => absoluteBox(boxes, vis, id);
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
      if (e.label && LABELLED.has(e.kind)) {
        edge.label = e.label;
        edge.type = 'labelled'; // LabelledEdge.tsx: its label over the nodes, never struck through by their borders
      }
      return { ...edge, ...handlesFor(at(e.source), at(e.target)) };
    });
  return { nodes, edges };
}

/**
 * Which sides an edge leaves and enters by, from where its ends are: left to right normally; an
 * edge back to a column on the left (a load balancer to its DIP endpoint) leaves from the left and
 * enters on the right, so it does not loop around both nodes; between two nodes of one column (the
 * stacked uplink → vSwitch → network, an endpoint and its port) straight down when they are next to
 * each other, else around the column's left side, so it does not run behind the nodes between.
 */
export function handlesFor(s: Box | undefined, t: Box | undefined): Pick<FlowEdge, 'sourceHandle' | 'targetHandle'> {
  if (!s || !t) return { sourceHandle: 'out', targetHandle: 'in' };
  if (t.x >= s.x + s.width) return { sourceHandle: 'out', targetHandle: 'in' };
  if (t.x + t.width <= s.x) return { sourceHandle: 'back-out', targetHandle: 'back-in' };
  const gap = t.y - (s.y + s.height);
  if (gap >= 0 && gap < 40) return { sourceHandle: 'down-out', targetHandle: 'down-in' };
  const up = s.y - (t.y + t.height);
  if (up >= 0 && up < 40) return { sourceHandle: 'up-out', targetHandle: 'up-in' };
  return { sourceHandle: 'side-out', targetHandle: 'side-in' };
}

/** The walk's jumps between drawn nodes no drawn edge joins: drawn with the path, so it reads end to
 *  end. Jumps to a node not drawn (no box yet) are left out. */
export function jumpEdges(
  jumps: readonly { id: string; source: string; target: string }[],
  vis: Pick<VisibleGraph, 'nodes' | 'openGroups'>,
  boxes: Record<string, Box>,
  drawn: ReadonlySet<string>,
): FlowEdge[] {
  return jumps
    .filter((j) => drawn.has(j.source) && drawn.has(j.target))
    .map((j) => ({
      id: j.id,
      source: j.source,
      target: j.target,
      ...handlesFor(absoluteBox(boxes, vis, j.source), absoluteBox(boxes, vis, j.target)),
      className: 'walk-edge walk-jump',
      focusable: false,
      data: { kind: 'attach' },
    }));
}
