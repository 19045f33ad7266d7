// What lights up on the drawn graph: the selected node and the edges touching it; the packet walk's
// path (lit nodes with hop badges, the current hop, the edges it follows, dashed jumps where no drawn
// edge joins two hops); the objects of the finding being looked at. Pure; untouched nodes and edges
// keep their identity, so memoized node components do not re-render.
import { jumpEdges, type FlowEdge, type FlowNode } from './to-flow.ts';
import type { VisibleGraph } from './visible-graph.ts';
import type { WalkPath } from './walk-path.ts';

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
}

const HL_CLASSES = /\s(?:walk-lit|walk-current|finding-lit)\b/g;
const EDGE_HL = /\s(?:walk-edge|walk-reverse)\b/g;

/** Marks the walked path (lit nodes with hop badges, the current hop, animated edges) and a
 *  finding's objects. Like applySelection, untouched objects are returned as they are. */
export function applyHighlight(nodes: FlowNode[], edges: FlowEdge[], hl: GraphHighlight): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const outNodes = nodes.map((n) => {
    const hops = hl.walkNodes?.get(n.id);
    const current = !!hl.walkCurrent?.has(n.id);
    const cls = `${hops ? ' walk-lit' : ''}${current ? ' walk-current' : ''}${hl.finding?.has(n.id) ? ' finding-lit' : ''}`;
    const base = (n.className ?? '').replace(HL_CLASSES, '');
    const walk = hops ? { hops, current } : undefined;
    const sameWalk = (n.data.walk === undefined && walk === undefined) || (!!n.data.walk && !!walk && n.data.walk.current === walk.current && n.data.walk.hops.join() === walk.hops.join());
    if (base + cls === n.className && sameWalk) return n;
    const data = { ...n.data };
    if (walk) data.walk = walk;
    else delete data.walk;
    return { ...n, className: base + cls, data };
  });
  const outEdges = edges.map((e) => {
    const dir = hl.walkEdges?.get(e.id);
    const base = (e.className ?? '').replace(EDGE_HL, '');
    const cls = dir ? `${base} walk-edge${dir === 'reverse' ? ' walk-reverse' : ''}` : base;
    if (cls === e.className && !!e.animated === !!dir) return e;
    return { ...e, className: cls, animated: !!dir };
  });
  return { nodes: outNodes, edges: outEdges };
}

export interface FlowHighlight {
  walk?: WalkPath;
  /** Visible node ids of the finding being looked at. */
  finding?: ReadonlySet<string>;
}

export function highlightFlow(flow: { nodes: FlowNode[]; edges: FlowEdge[] }, hl: FlowHighlight, vis: Pick<VisibleGraph, 'nodes'> | undefined): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const { walk, finding } = hl;
  const out = applyHighlight(flow.nodes, flow.edges, { walkNodes: walk?.nodes, walkCurrent: walk?.current, walkEdges: walk?.edges, finding });
  if (!walk?.jumps.length || !vis) return out;
  const drawn = new Set(out.nodes.map((n) => n.id));
  return { nodes: out.nodes, edges: [...out.edges, ...jumpEdges(walk.jumps, vis, drawn)] };
}
