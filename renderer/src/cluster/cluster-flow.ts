// The cluster graph laid out for React Flow without a layout engine (a handful of nodes): each node
// of the cluster a group in a row of columns, its address, pod subnets and pods stacked inside, the
// addresses no node has in a column to the right; the paths between groups as edges. What a walk
// lights gets the `cluster-lit` class.
import type { Edge, Node } from '@xyflow/react';
import type { ClusterGraph } from '../../../analysis/view-models/cluster-graph.ts';

export const GROUP_W = 280;
// Wide enough for the label of the path between two groups ("VXLAN 10.240.0.11").
const GAP = 180;
const ITEM_H = 40;
const HEAD = 58;

export function clusterFlow(g: ClusterGraph, lit: ReadonlySet<string>): { nodes: Node[]; edges: Edge[] } {
  const groups = g.nodes.filter((n) => n.kind === 'node');
  const nowhere = g.nodes.filter((n) => n.kind === 'nowhere');
  const nodes: Node[] = [];
  groups.forEach((grp, i) => {
    const items = g.nodes.filter((n) => n.parent === grp.id);
    const height = HEAD + items.length * ITEM_H + 12;
    const flags = [grp.errors ? `${grp.errors} error${grp.errors === 1 ? '' : 's'}` : '', grp.odd ? `odd one out in ${grp.odd} finding${grp.odd === 1 ? '' : 's'}` : ''].filter(Boolean).join(' · ');
    nodes.push({
      id: grp.id,
      type: 'clusterGroup',
      position: { x: i * (GROUP_W + GAP), y: (i % 2) * 40 },
      data: { label: grp.label },
      style: { width: GROUP_W, height },
      className: `cluster-group${lit.has(grp.id) ? ' cluster-lit' : ''}${grp.odd ? ' cluster-odd' : ''}`,
      selectable: false,
    });
    nodes.push({
      id: `${grp.id}#title`,
      parentId: grp.id,
      extent: 'parent',
      position: { x: 8, y: 6 },
      data: { label: `${grp.label}${flags ? ` — ${flags}` : ''}` },
      style: { width: GROUP_W - 16 },
      className: 'cluster-title',
      draggable: false,
      selectable: false,
      connectable: false,
    });
    items.forEach((it, k) => {
      nodes.push({
        id: it.id,
        parentId: grp.id,
        extent: 'parent',
        position: { x: 10, y: HEAD + k * ITEM_H },
        data: { label: it.detail ? `${it.label} · ${it.detail}` : it.label },
        style: { width: GROUP_W - 20 },
        className: `cluster-item cluster-${it.kind}${lit.has(it.id) ? ' cluster-lit' : ''}`,
        draggable: false,
        connectable: false,
      });
    });
  });
  nowhere.forEach((n, k) => {
    nodes.push({
      id: n.id,
      position: { x: groups.length * (GROUP_W + GAP), y: 40 + k * 80 },
      data: { label: `${n.label} — ${n.detail ?? ''}` },
      style: { width: GROUP_W - 40 },
      className: `cluster-nowhere${lit.has(n.id) ? ' cluster-lit' : ''}`,
      connectable: false,
    });
  });
  const edges: Edge[] = g.edges.map((e) => ({
    id: e.id,
    source: e.source,
    target: e.target,
    label: e.label,
    className: `cluster-edge cluster-edge-${e.kind}${lit.has(e.id) ? ' cluster-lit' : ''}`,
    animated: lit.has(e.id),
  }));
  return { nodes, edges };
}
