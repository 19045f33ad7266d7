// TopologyGraph (visible part) → ELK's JSON graph, and ELK's answer → positions. Pure, so the
// worker and the tests share it. Layered, left to right; the TopoNode `rank` becomes an ELK
// partition, which pins uplink → vSwitch → networks → host/endpoints → load balancers → remote to
// columns in that order whatever the edges say.
import type { VisibleGraph } from './visible-graph.ts';
import { collapsedGroupSize, GROUP_HEADER_H, GROUP_PAD, leafSize } from './sizes.ts';

export interface ElkNodeJson {
  id: string;
  width?: number;
  height?: number;
  x?: number;
  y?: number;
  layoutOptions?: Record<string, string>;
  children?: ElkNodeJson[];
  edges?: { id: string; sources: string[]; targets: string[] }[];
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const ROOT_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  // SEPARATE_CHILDREN (ELK's default): each group is laid out on its own, then the top level with
  // groups as fixed boxes. INCLUDE_CHILDREN took over a minute on an 800-node node; this takes well
  // under a second, and the groups (a compartment's adapter and endpoint, an lb-group) are small.
  'elk.hierarchyHandling': 'SEPARATE_CHILDREN',
  'elk.partitioning.activate': 'true',
  'elk.layered.spacing.nodeNodeBetweenLayers': '90',
  'elk.spacing.nodeNode': '18',
  'elk.layered.spacing.edgeNodeBetweenLayers': '24',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  // React Flow draws its own edges, so ELK's routes are thrown away; orthogonal routing was most of
  // the time on a 250-pod node (37 s → 2.4 s with POLYLINE, measured).
  'elk.edgeRouting': 'POLYLINE',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.separateConnectedComponents': 'false',
};

const GROUP_OPTIONS: Record<string, string> = {
  'elk.padding': `[top=${GROUP_HEADER_H + 6},left=${GROUP_PAD},bottom=${GROUP_PAD},right=${GROUP_PAD}]`,
  'elk.direction': 'DOWN',
  'elk.spacing.nodeNode': '10',
};

/** Crossing minimisation is the next cost; measured on an 800-node synthetic node: thoroughness 7
 *  (the default) ≈ 25 s, 3 ≈ 7 s, 1 ≈ 3 s. Small graphs get the careful layout, big ones a fast one. */
export function thoroughnessFor(nodeCount: number): number {
  return nodeCount < 150 ? 7 : nodeCount < 400 ? 3 : 1;
}

/** Above this many visible nodes ELK takes minutes (4,569 nodes, every load balancer expanded:
 *  ≈ 3 min even without crossing minimisation), so the grid layout is used instead. */
export const ELK_MAX_NODES = 1500;

export function toElkGraph(vis: VisibleGraph): ElkNodeJson {
  const layoutOptions: Record<string, string> = { ...ROOT_OPTIONS, 'elk.layered.thoroughness': String(thoroughnessFor(vis.nodes.length)) };
  if (vis.nodes.length >= 400) layoutOptions['elk.layered.considerModelOrder.strategy'] = 'NONE';
  const root: ElkNodeJson = { id: '__root', layoutOptions, children: [], edges: [] };
  const elk = new Map<string, ElkNodeJson>();
  const ids = new Set(vis.nodes.map((n) => n.id));
  const byId = new Map(vis.nodes.map((n) => [n.id, n]));
  for (const n of vis.nodes) {
    const part = { 'elk.partitioning.partition': String(Math.max(0, Math.round(n.rank))) };
    if (vis.openGroups.has(n.id)) {
      elk.set(n.id, { id: n.id, layoutOptions: { ...GROUP_OPTIONS, ...part }, children: [] });
    } else {
      const size = vis.collapsedGroups.has(n.id) ? collapsedGroupSize() : leafSize(n);
      elk.set(n.id, { id: n.id, ...size, layoutOptions: part });
    }
  }
  for (const n of vis.nodes) {
    const parent = n.parent && ids.has(n.parent) && vis.openGroups.has(n.parent) ? elk.get(n.parent) : root;
    parent!.children!.push(elk.get(n.id)!);
  }
  // Each edge is declared where ELK lays it out: inside a group when both ends share it, otherwise
  // at the top level between the outermost ancestors (React Flow still draws it to the real node).
  const parentOf = (id: string) => {
    const p = byId.get(id)?.parent;
    return p && vis.openGroups.has(p) ? p : undefined;
  };
  const topOf = (id: string) => {
    let cur = id;
    for (let p = parentOf(cur); p; p = parentOf(cur)) cur = p;
    return cur;
  };
  const seen = new Set<string>();
  for (const e of vis.edges) {
    const ps = parentOf(e.source);
    if (ps && ps === parentOf(e.target)) {
      elk.get(ps)!.edges = [...(elk.get(ps)!.edges ?? []), { id: e.id, sources: [e.source], targets: [e.target] }];
      continue;
    }
    const s = topOf(e.source);
    const t = topOf(e.target);
    const id = `${s}->${t}`;
    if (s === t || seen.has(id)) continue;
    seen.add(id);
    root.edges!.push({ id: `top:${id}`, sources: [s], targets: [t] });
  }
  return root;
}

/** Flattens ELK's laid-out tree into boxes relative to each node's parent (React Flow's convention). */
export function boxesFromElk(root: ElkNodeJson): Record<string, Box> {
  const out: Record<string, Box> = {};
  const walk = (n: ElkNodeJson) => {
    for (const c of n.children ?? []) {
      out[c.id] = { x: c.x ?? 0, y: c.y ?? 0, width: c.width ?? 0, height: c.height ?? 0 };
      walk(c);
    }
  };
  walk(root);
  return out;
}
