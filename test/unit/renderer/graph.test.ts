// The graph's model without a DOM: what is drawn once nodes are folded, the default folding, the
// React Flow nodes and edges (sides edges attach to), and what ELK is given to order.
import { describe, expect, it } from 'vitest';
import { groupIds, hostIds, nodeIdForRef, visibleGraph } from '../../../renderer/src/graph/visible-graph.ts';
import { collapseKey, defaultCollapsed, folded, opened, toggled } from '../../../renderer/src/graph/collapse-state.ts';
import { GROUP_TYPE, handlesFor, NODE_TYPE, toFlow } from '../../../renderer/src/graph/to-flow.ts';
import { applySelection } from '../../../renderer/src/graph/highlight-flow.ts';
import { positionsFromElk, thoroughnessFor, toElkGraph } from '../../../renderer/src/graph/elk-graph.ts';
import { columnOf } from '../../../renderer/src/graph/columns.ts';
import { fullGraph } from '../../../renderer/src/graph/full-graph.ts';
import { leafSize } from '../../../renderer/src/graph/sizes.ts';
import type { TopologyGraph } from '../../../analysis/view-models/types.ts';
import { layoutOf } from './graph-helpers.ts';
import { syntheticTopology } from './topology-fixture.ts';

const EP0 = 'endpoint:00000000-aaaa-bbbb-cccc-dddddddddddd';

describe('visible graph', () => {
  it('hides the children of a collapsed group and re-attaches their edges to it', () => {
    const g = syntheticTopology(2, 1);
    // Two endpoints in compartment 2 (folded as a group, not drawn as its one endpoint).
    g.nodes.push({ id: 'endpoint:second', kind: 'endpoint', label: 'x', details: [], flags: [], rank: 3, parent: 'compartment:2' });
    const vis = visibleGraph(g, new Set(['compartment:2']));
    expect(vis.nodes.find((n) => n.id === EP0)).toBeUndefined();
    expect(vis.collapsedGroups.get('compartment:2')).toBe(2);
    expect(vis.openGroups.has('compartment:3')).toBe(true);
    const attach = vis.edges.find((e) => e.source === 'network:n1' && e.target === 'compartment:2');
    expect(attach?.kind).toBe('attach');
    const ids = new Set(vis.nodes.map((n) => n.id));
    expect(vis.edges.every((e) => ids.has(e.source) && ids.has(e.target))).toBe(true);
  });

  it('draws a folded compartment holding one endpoint as that endpoint, without the frame', () => {
    const g = syntheticTopology(2, 1, { ports: true });
    const vis = visibleGraph(g, new Set(['compartment:2', EP0]));
    expect(vis.nodes.some((n) => n.id === 'compartment:2')).toBe(false);
    expect(vis.nodes.some((n) => n.id === EP0)).toBe(true);
    expect(vis.frameless.get(EP0)?.id).toBe('compartment:2');
    expect(vis.visibleOf.get('compartment:2')).toBe(EP0);
    expect(vis.openGroups.has('compartment:2')).toBe(false);
    // The endpoint's port is folded into the endpoint; opened, it is drawn beside it.
    expect(vis.folded.get(EP0)?.map((n) => n.id)).toEqual(['port:p0']);
    expect(vis.visibleOf.get('port:p0')).toBe(EP0);
    const withPort = visibleGraph(g, new Set(['compartment:2']));
    expect(withPort.nodes.some((n) => n.id === 'port:p0')).toBe(true);
    expect(withPort.openGroups.has('compartment:2')).toBe(false);
    // A compartment of several endpoints folds as a group.
    g.nodes.push({ id: 'endpoint:second', kind: 'endpoint', label: 'x', details: [], flags: [], rank: 3, parent: 'compartment:2' });
    const two = visibleGraph(g, new Set(['compartment:2']));
    expect(two.collapsedGroups.get('compartment:2')).toBe(3);
    expect(two.visibleOf.get(EP0)).toBe('compartment:2');
  });

  it('folds a VFP port into its endpoint until the endpoint is opened, then draws it beside it', () => {
    const g = syntheticTopology(1, 0, { ports: true });
    const shut = visibleGraph(g, new Set([EP0]));
    expect(shut.nodes.some((n) => n.id === 'port:p0')).toBe(false);
    expect(shut.visibleOf.get('port:p0')).toBe(EP0);
    expect(shut.folded.get(EP0)?.map((n) => n.id)).toEqual(['port:p0']);
    expect(shut.edges.some((e) => e.kind === 'port')).toBe(false);
    const open = visibleGraph(g, new Set());
    expect(open.nodes.some((n) => n.id === 'port:p0')).toBe(true);
    expect(open.unfolded.has(EP0)).toBe(true);
    expect(open.edges.find((e) => e.kind === 'port')).toMatchObject({ source: EP0, target: 'port:p0' });
    // The port shares the endpoint's compartment.
    expect(open.openGroups.has('compartment:2')).toBe(true);
  });

  it('draws a group’s summary edges only while the group is folded, its members’ own when open', () => {
    const g = syntheticTopology(1, 2, { lbGroup: true });
    // The backend lists a group's own edges before its members' (full-graph.ts merges them after).
    g.edges.unshift({ id: 'lb-dip:lb-group:0->' + EP0, source: 'lb-group:0', target: EP0, kind: 'lb-dip', label: '2 LBs', summary: true });
    const shut = visibleGraph(g, new Set(['lb-group:0']));
    const fromGroup = shut.edges.filter((e) => e.source === 'lb-group:0' && e.target === EP0);
    expect(fromGroup).toHaveLength(1);
    expect(fromGroup[0].label).toBe('2 LBs');
    const open = visibleGraph(g, new Set());
    expect(open.edges.some((e) => e.summary)).toBe(false);
    expect(open.edges.filter((e) => e.kind === 'lb-dip' && e.target === EP0).map((e) => e.source).sort()).toEqual(['loadbalancer:lb0', 'loadbalancer:lb1']);
  });

  it('finds the node for a ref, a member of an lb-group, or an object sharing the GUID', () => {
    const g = syntheticTopology(1, 3, { lbGroup: true });
    const grouped = { ...g, nodes: g.nodes.filter((n) => n.kind !== 'loadbalancer') };
    expect(nodeIdForRef(grouped, { type: 'loadbalancer', id: 'lb1' })).toBe('lb-group:0');
    // With the members drawn as nodes of their own, their own node.
    expect(nodeIdForRef(g, { type: 'loadbalancer', id: 'lb1' })).toBe('loadbalancer:lb1');
    const guid = '00000000-aaaa-bbbb-cccc-dddddddddddd';
    expect(nodeIdForRef(g, { type: 'endpoint', id: guid })).toBe(`endpoint:${guid}`);
    expect(nodeIdForRef(g, { type: 'port', id: guid.toUpperCase() })).toBe(`endpoint:${guid}`);
    expect(nodeIdForRef(g, { type: 'route', id: 'v4a/0' })).toBeUndefined();
  });

  it('merges what the backend sent apart into one graph, once per topology', () => {
    const t: TopologyGraph = { nodes: [{ id: 'a', kind: 'endpoint', label: 'a', details: [], flags: [], rank: 3 }], edges: [], collapsed: false, attached: { nodes: [{ id: 'p', kind: 'vfp-port', label: 'p', details: [], flags: [], rank: 3, attachedTo: 'a' }], edges: [{ id: 'e', source: 'a', target: 'p', kind: 'port' }] } };
    const g = fullGraph(t);
    expect(g.nodes.map((n) => n.id)).toEqual(['a', 'p']);
    expect(g.edges.map((e) => e.id)).toEqual(['e']);
    expect(fullGraph(t)).toBe(g);
  });
});

describe('collapse state', () => {
  it('folds pods’ compartments, load-balancer groups and VFP ports by default; a compartment of several endpoints stays open', () => {
    const g = syntheticTopology(2, 2, { lbGroup: true, ports: true });
    // A second endpoint in compartment 3 (a host compartment, a multi-NIC pod).
    g.nodes.push({ id: 'endpoint:second', kind: 'endpoint', label: '10.244.0.99', details: [], flags: [], rank: 3, parent: 'compartment:3' });
    const d = defaultCollapsed(g);
    expect(d.has('compartment:2')).toBe(true);
    expect(d.has('compartment:3')).toBe(false);
    expect(d.has('lb-group:0')).toBe(true);
    expect(d.has(EP0)).toBe(true);
    expect([...hostIds(g)].sort()).toEqual([EP0, 'endpoint:00000001-aaaa-bbbb-cccc-dddddddddddd']);
    expect(groupIds(g).has('lb-group:0')).toBe(true);
  });

  it('toggles, opens and folds sets of ids, and names a state whatever the order', () => {
    const s = new Set(['a', 'b']);
    expect([...toggled(s, 'a')]).toEqual(['b']);
    expect([...toggled(s, 'c')].sort()).toEqual(['a', 'b', 'c']);
    expect([...opened(s, ['a', 'x'])]).toEqual(['b']);
    expect([...folded(s, ['c'])].sort()).toEqual(['a', 'b', 'c']);
    expect(s.size).toBe(2);
    expect(collapseKey(new Set(['b', 'a']))).toBe(collapseKey(new Set(['a', 'b'])));
    expect(collapseKey(new Set(['a']))).not.toBe(collapseKey(new Set(['a', 'b'])));
  });
});

describe('React Flow adapter', () => {
  const g = syntheticTopology(2, 2);
  const vis = visibleGraph(g, new Set());
  const boxes = layoutOf(g, new Set());

  it('makes a node per visible TopoNode, parents first, children relative to their group', () => {
    const { nodes } = toFlow(vis, boxes);
    expect(nodes).toHaveLength(g.nodes.length);
    const idx = new Map(nodes.map((n, i) => [n.id, i]));
    for (const n of nodes) if (n.parentId) expect(idx.get(n.parentId)!).toBeLessThan(idx.get(n.id)!);
    const ep = nodes.find((n) => n.id === EP0)!;
    expect(ep.type).toBe(NODE_TYPE);
    expect(ep.parentId).toBe('compartment:2');
    expect(ep.ariaLabel).toBe('Endpoint 10.244.0.3, blocked');
    expect(nodes.find((n) => n.id === 'compartment:2')!.type).toBe(GROUP_TYPE);
    expect(ep.position.x).toBeLessThan(50);
  });

  it('tells a pod drawn without its compartment which one it is in, and a folded endpoint its port', () => {
    const gp = syntheticTopology(1, 0, { ports: true });
    const v = visibleGraph(gp, new Set(['compartment:2', EP0]));
    const n = toFlow(v, layoutOf(gp, new Set(['compartment:2', EP0]))).nodes.find((x) => x.id === EP0)!;
    expect(n.data.frame?.id).toBe('compartment:2');
    expect(n.parentId).toBeUndefined();
    expect(n.data.folded?.map((x) => x.id)).toEqual(['port:p0']);
    expect(n.ariaLabel).toBe('Endpoint 10.244.0.3 (in Compartment 2), blocked');
  });

  it('styles edges by kind, marks broken ones, and attaches them by where their ends are', () => {
    const { edges } = toFlow(vis, boxes);
    const broken = edges.find((e) => e.target === 'remote-endpoint:gone')!;
    expect(broken.className).toBe('edge-lb-dip edge-broken');
    const back = edges.find((e) => e.source.startsWith('loadbalancer:') && e.target.startsWith('endpoint:'))!;
    expect([back.sourceHandle, back.targetHandle]).toEqual(['back-out', 'back-in']);
    // uplink → vSwitch are stacked in the first column: straight down.
    const down = edges.find((e) => e.source === 'uplink:eth')!;
    expect([down.sourceHandle, down.targetHandle]).toEqual(['down-out', 'down-in']);
    const fwd = edges.find((e) => e.source === 'network:n1' && e.target === EP0)!;
    expect([fwd.sourceHandle, fwd.targetHandle]).toEqual(['out', 'in']);
  });

  it('routes an edge between two nodes of one column that others separate around the column’s side', () => {
    const a = { x: 0, y: 0, width: 200, height: 50 };
    expect(handlesFor(a, { x: 0, y: 60, width: 200, height: 50 })).toEqual({ sourceHandle: 'down-out', targetHandle: 'down-in' });
    expect(handlesFor(a, { x: 0, y: 300, width: 200, height: 50 })).toEqual({ sourceHandle: 'side-out', targetHandle: 'side-in' });
    expect(handlesFor({ x: 0, y: 300, width: 200, height: 50 }, { x: 0, y: 230, width: 200, height: 50 })).toEqual({ sourceHandle: 'up-out', targetHandle: 'up-in' });
    expect(handlesFor(a, { x: 300, y: 0, width: 200, height: 50 })).toEqual({ sourceHandle: 'out', targetHandle: 'in' });
  });

  it('highlights the selection and its edges without touching other objects', () => {
    const flow = toFlow(vis, boxes);
    const sel = applySelection(flow.nodes, flow.edges, 'network:n1');
    expect(sel.nodes.find((n) => n.id === 'network:n1')!.selected).toBe(true);
    const untouched = sel.nodes.find((n) => n.id === 'uplink:eth')!;
    expect(untouched).toBe(flow.nodes.find((n) => n.id === 'uplink:eth'));
    const incident = sel.edges.filter((e) => e.className?.includes('is-incident'));
    expect(incident.length).toBeGreaterThan(0);
    expect(incident.every((e) => e.source === 'network:n1' || e.target === 'network:n1')).toBe(true);
    const cleared = applySelection(sel.nodes, sel.edges, undefined);
    expect(cleared.edges.some((e) => e.className?.includes('is-incident'))).toBe(false);
  });
});

describe('ELK input (the order within each column)', () => {
  const g = syntheticTopology(2, 1);
  const skel = visibleGraph(g, groupIds(g));

  it('is the top level as leaves partitioned by column, without edges inside a column', () => {
    const root = toElkGraph(skel, leafSize);
    expect(root.children!.map((c) => c.id).sort()).toEqual(skel.nodes.map((n) => n.id).sort());
    for (const c of root.children!) expect(c.layoutOptions!['elk.partitioning.partition']).toBe(String(columnOf(skel.nodes.find((n) => n.id === c.id)!)));
    // uplink → vSwitch → network share the first column: left out.
    expect(root.edges!.some((e) => e.sources[0] === 'uplink:eth')).toBe(false);
    expect(root.edges!.some((e) => e.sources[0] === 'network:n1' && e.targets[0] === EP0)).toBe(true);
    const ids = new Set(root.children!.map((c) => c.id));
    expect(root.edges!.every((e) => ids.has(e.sources[0]) && ids.has(e.targets[0]))).toBe(true);
  });

  it('gives ELK at most three backend links per node', () => {
    const many = syntheticTopology(8, 1);
    for (let i = 1; i < 8; i++) many.edges.push({ id: `x${i}`, source: 'loadbalancer:lb0', target: `endpoint:0000000${i}-aaaa-bbbb-cccc-dddddddddddd`, kind: 'lb-dip' });
    const root = toElkGraph(visibleGraph(many, groupIds(many)), leafSize);
    expect(root.edges!.filter((e) => e.sources[0] === 'loadbalancer:lb0').length).toBe(3);
  });

  it('reads ELK’s y per node and lowers thoroughness on big graphs', () => {
    expect(positionsFromElk({ id: 'r', children: [{ id: 'a', x: 1, y: 20 }, { id: 'b', y: 5 }] })).toEqual({ a: 20, b: 5 });
    expect(thoroughnessFor(50)).toBeGreaterThan(thoroughnessFor(1000));
  });
});
