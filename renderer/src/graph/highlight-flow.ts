// What stands out on the drawn graph: the selected node and the edges touching it; the packet walk's
// path (lit nodes with their hop numbers, the current hop, the edges it follows drawn bold, jumps
// where no drawn edge joins two hops; the rest dimmed by graph.css); the objects of the finding
// being looked at; the faults every finding marks (fault-marks.ts). On a dense graph the load
// balancers' backend links are drawn only where they concern what is selected, walked or looked at
// (thousands of them hid everything else and cost most of the frame). Pure; untouched nodes and
// edges keep their identity, so memoized node components do not re-render.
import { jumpEdges, type FlowEdge, type FlowNode } from './to-flow.ts';
import type { Box } from './elk-graph.ts';
import type { VisibleGraph } from './visible-graph.ts';
import type { WalkPath } from './walk-path.ts';
import type { FaultMarks } from './fault-marks.ts';

/** Above this many drawn links the graph is dense: backend links are drawn only where they matter. */
export const DENSE_EDGES = 400;

/** Marks the selected node and the edges touching it. Unchanged objects are returned as is, so
 *  memoized node components do not re-render on every selection change. */
export function applySelection(nodes: FlowNode[], edges: FlowEdge[], selectedId: string | undefined): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const outNodes = nodes.map((n) => {
    const sel = n.id === selectedId;
    return !!n.selected === sel ? n : { ...n, selected: sel };
  });
  const outEdges = edges.map((e) => {
    const inc = !!selectedId && (e.source === selectedId || e.target === selectedId);
    const has = e.className?.includes(' is-incident') ?? false;
    if (inc === has) return e;
    const base = (e.className ?? '').replace(' is-incident', '');
    return { ...e, className: inc ? `${base} is-incident` : base, zIndex: inc ? 10 : 0 };
  });
  return { nodes: outNodes, edges: outEdges };
}

export interface GraphHighlight {
  /** Visible node id → hop numbers (the packet walk). */
  walkNodes?: ReadonlyMap<string, number[]>;
  walkCurrent?: ReadonlySet<string>;
  /** Edge id → direction the packet takes along it. */
  walkEdges?: ReadonlyMap<string, 'forward' | 'reverse'>;
  /** Visible node ids of the finding being looked at. */
  finding?: ReadonlySet<string>;
  /** What every finding marks. */
  marks?: FaultMarks;
}

const HL_CLASSES = /\s(?:walk-lit|walk-current|finding-lit|fault-error|fault-warning)\b/g;
const EDGE_HL = /\s(?:walk-edge|walk-reverse|edge-fault-error|edge-fault-warning)\b/g;

/** Marks the walked path, a finding's objects and every finding's faults. Like applySelection,
 *  untouched objects are returned as they are. */
export function applyHighlight(nodes: FlowNode[], edges: FlowEdge[], hl: GraphHighlight): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const outNodes = nodes.map((n) => {
    const hops = hl.walkNodes?.get(n.id);
    const current = !!hl.walkCurrent?.has(n.id);
    const fault = hl.marks?.nodes.get(n.id);
    const cls = `${hops ? ' walk-lit' : ''}${current ? ' walk-current' : ''}${hl.finding?.has(n.id) ? ' finding-lit' : ''}${fault ? ` fault-${fault.severity}` : ''}`;
    const base = (n.className ?? '').replace(HL_CLASSES, '');
    const walk = hops ? { hops, current } : undefined;
    const sameWalk = (n.data.walk === undefined && walk === undefined) || (!!n.data.walk && !!walk && n.data.walk.current === walk.current && n.data.walk.hops.join() === walk.hops.join());
    if (base + cls === n.className && sameWalk && n.data.fault === fault) return n;
    const data = { ...n.data };
    if (walk) data.walk = walk;
    else delete data.walk;
    if (fault) data.fault = fault;
    else delete data.fault;
    return { ...n, className: base + cls, data };
  });
  const outEdges = edges.map((e) => {
    const dir = hl.walkEdges?.get(e.id);
    const fault = hl.marks?.edges.get(e.id);
    const base = (e.className ?? '').replace(EDGE_HL, '');
    const cls = `${base}${dir ? ` walk-edge${dir === 'reverse' ? ' walk-reverse' : ''}` : ''}${fault ? ` edge-fault-${fault}` : ''}`;
    const z = dir ? 20 : fault ? 5 : e.zIndex;
    if (cls === e.className && z === e.zIndex) return e;
    return { ...e, className: cls, ...(z !== undefined ? { zIndex: z } : {}) };
  });
  return { nodes: outNodes, edges: outEdges };
}

export interface FlowHighlight {
  walk?: WalkPath;
  /** Visible node ids of the finding being looked at. */
  finding?: ReadonlySet<string>;
  marks?: FaultMarks;
  selectedId?: string;
}

/** On a dense graph, the backend links that concern nothing selected, walked, looked at or faulty are left out. */
export function thinEdges(edges: FlowEdge[], hl: FlowHighlight): FlowEdge[] {
  if (edges.length <= DENSE_EDGES) return edges;
  const keep = new Set<string>();
  if (hl.selectedId) keep.add(hl.selectedId);
  for (const id of hl.walk?.nodes.keys() ?? []) keep.add(id);
  for (const id of hl.finding ?? []) keep.add(id);
  return edges.filter((e) => e.data?.kind !== 'lb-dip' || keep.has(e.source) || keep.has(e.target) || hl.walk?.edges.has(e.id) || hl.marks?.edges.has(e.id));
}

export function highlightFlow(
  flow: { nodes: FlowNode[]; edges: FlowEdge[] },
  hl: FlowHighlight,
  vis: Pick<VisibleGraph, 'nodes' | 'openGroups'> | undefined,
  boxes: Record<string, Box> | undefined,
): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const { walk, finding, marks } = hl;
  const out = applyHighlight(flow.nodes, thinEdges(flow.edges, hl), { walkNodes: walk?.nodes, walkCurrent: walk?.current, walkEdges: walk?.edges, finding, marks });
  if (!walk?.jumps.length || !vis || !boxes) return out;
  const drawn = new Set(out.nodes.map((n) => n.id));
  return { nodes: out.nodes, edges: [...out.edges, ...jumpEdges(walk.jumps, vis, boxes, drawn)] };
}
