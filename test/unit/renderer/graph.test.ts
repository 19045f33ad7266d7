import { describe, expect, it } from 'vitest';
import { defaultCollapsed, groupIds, nodeIdForRef, visibleGraph } from '../../../renderer/src/graph/visible-graph.ts';
import { GROUP_TYPE, NODE_TYPE, toFlow } from '../../../renderer/src/graph/to-flow.ts';
import { applySelection } from '../../../renderer/src/graph/highlight-flow.ts';
import { boxesFromElk, thoroughnessFor, toElkGraph } from '../../../renderer/src/graph/elk-graph.ts';
import { fallbackLayout } from '../../../renderer/src/graph/fallback-layout.ts';
import { syntheticTopology } from './topology-fixture.ts';

describe('visible graph', () => {
  it('hides the children of a collapsed group and re-attaches their edges to it', () => {
    const g = syntheticTopology(2, 1);
    const vis = visibleGraph(g, new Set(['compartment:2']));
    expect(vis.nodes.find((n) => n.id.startsWith('endpoint:00000000'))).toBeUndefined();
    expect(vis.collapsedGroups.get('compartment:2')).toBe(1);
    expect(vis.openGroups.has('compartment:3')).toBe(true);
    const attach = vis.edges.find((e) => e.source === 'network:n1' && e.target === 'compartment:2');
    expect(attach?.kind).toBe('attach');
    // Every edge ends on a visible node.
    const ids = new Set(vis.nodes.map((n) => n.id));
    expect(vis.edges.every((e) => ids.has(e.source) && ids.has(e.target))).toBe(true);
  });

  it('finds the node for a ref, a member of an lb-group, or an object sharing the GUID', () => {
    const g = syntheticTopology(1, 3, { lbGroup: true });
    const grouped = { ...g, nodes: g.nodes.filter((n) => n.kind !== 'loadbalancer') };
    expect(nodeIdForRef(grouped, { type: 'loadbalancer', id: 'lb1' })).toBe('lb-group:0');
    const guid = '00000000-aaaa-bbbb-cccc-dddddddddddd';
    expect(nodeIdForRef(g, { type: 'endpoint', id: guid })).toBe(`endpoint:${guid}`);
    expect(nodeIdForRef(g, { type: 'port', id: guid.toUpperCase() })).toBe(`endpoint:${guid}`);
    expect(nodeIdForRef(g, { type: 'route', id: 'v4a/0' })).toBeUndefined();
  });

  it('collapses lb-groups by default only on big graphs', () => {
    const small = syntheticTopology(2, 2, { lbGroup: true });
    expect(defaultCollapsed(small).size).toBe(0);
    expect([...defaultCollapsed(small, 1)]).toEqual(['lb-group:0']);
    expect(groupIds(small).has('compartment:2')).toBe(true);
  });
});

describe('React Flow adapter', () => {
  const g = syntheticTopology(2, 2);
  const vis = visibleGraph(g, new Set());
  const boxes = fallbackLayout(vis);

  it('makes a node per visible TopoNode, parents first, children relative to their group', () => {
    const { nodes } = toFlow(vis, boxes);
    expect(nodes).toHaveLength(g.nodes.length);
    const idx = new Map(nodes.map((n, i) => [n.id, i]));
    for (const n of nodes) if (n.parentId) expect(idx.get(n.parentId)!).toBeLessThan(idx.get(n.id)!);
    const ep = nodes.find((n) => n.id.startsWith('endpoint:'))!;
    expect(ep.type).toBe(NODE_TYPE);
    expect(ep.parentId).toBe('compartment:2');
    expect(nodes.find((n) => n.id === 'compartment:2')!.type).toBe(GROUP_TYPE);
    expect(ep.position.x).toBeLessThan(50);
  });

  it('styles edges by kind, marks broken ones, and routes backward edges from the left', () => {
    const { edges } = toFlow(vis, boxes);
    const broken = edges.find((e) => e.target === 'remote-endpoint:gone')!;
    expect(broken.className).toBe('edge-lb-dip edge-broken');
    const back = edges.find((e) => e.source.startsWith('loadbalancer:') && e.target.startsWith('endpoint:'))!;
    expect([back.sourceHandle, back.targetHandle]).toEqual(['back-out', 'back-in']);
    const fwd = edges.find((e) => e.source === 'uplink:eth')!;
    expect([fwd.sourceHandle, fwd.targetHandle]).toEqual(['out', 'in']);
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

describe('ELK input', () => {
  it('nests children in their group, partitions by rank and declares edges where ELK lays them out', () => {
    const vis = visibleGraph(syntheticTopology(2, 1), new Set());
    const root = toElkGraph(vis);
    const comp = root.children!.find((c) => c.id === 'compartment:2')!;
    expect(comp.children!.map((c) => c.id)).toEqual(['endpoint:00000000-aaaa-bbbb-cccc-dddddddddddd']);
    expect(root.children!.find((c) => c.id === 'uplink:eth')!.layoutOptions!['elk.partitioning.partition']).toBe('0');
    // The network → endpoint edge is lifted to the compartment at the top level.
    expect(root.edges!.some((e) => e.sources[0] === 'network:n1' && e.targets[0] === 'compartment:2')).toBe(true);
    const ids = new Set(root.children!.map((c) => c.id));
    expect(root.edges!.every((e) => ids.has(e.sources[0]) && ids.has(e.targets[0]))).toBe(true);
  });

  it('flattens ELK output to parent-relative boxes and lowers thoroughness on big graphs', () => {
    const boxes = boxesFromElk({ id: 'r', children: [{ id: 'g', x: 10, y: 20, width: 100, height: 50, children: [{ id: 'c', x: 5, y: 6, width: 7, height: 8 }] }] });
    expect(boxes).toEqual({ g: { x: 10, y: 20, width: 100, height: 50 }, c: { x: 5, y: 6, width: 7, height: 8 } });
    expect(thoroughnessFor(50)).toBeGreaterThan(thoroughnessFor(1000));
  });
});

describe('camera', () => {
  it('fits small graphs and shows big ones from the top at a readable zoom', async () => {
    const { initialViewport, absoluteBox } = await import('../../../renderer/src/graph/viewport.ts');
    expect(initialViewport({ x: 0, y: 0, width: 1000, height: 600 }, { width: 1200, height: 800 })).toBeUndefined();
    const vp = initialViewport({ x: 0, y: 0, width: 2400, height: 40000 }, { width: 1200, height: 800 }, 50)!;
    expect(vp.zoom).toBeGreaterThanOrEqual(0.5);
    expect(vp.y).toBe(24 + 50);
    const vis = visibleGraph(syntheticTopology(1, 0), new Set());
    const boxes = { 'compartment:2': { x: 100, y: 200, width: 10, height: 10 }, 'endpoint:00000000-aaaa-bbbb-cccc-dddddddddddd': { x: 5, y: 6, width: 1, height: 1 } };
    expect(absoluteBox(boxes, vis, 'endpoint:00000000-aaaa-bbbb-cccc-dddddddddddd')).toEqual({ x: 105, y: 206, width: 1, height: 1 });
  });
});

describe('grid layout', () => {
  it('keeps ranks left to right and wraps a crowded column into sub-columns', () => {
    const vis = visibleGraph(syntheticTopology(0, 400), new Set());
    const boxes = fallbackLayout(vis);
    expect(boxes['uplink:eth'].x).toBeLessThan(boxes['vswitch:1'].x);
    expect(boxes['vswitch:1'].x).toBeLessThan(boxes['network:n1'].x);
    const lbXs = new Set(vis.nodes.filter((n) => n.kind === 'loadbalancer').map((n) => boxes[n.id].x));
    expect(lbXs.size).toBeGreaterThan(1);
    const lbMaxY = Math.max(...vis.nodes.filter((n) => n.kind === 'loadbalancer').map((n) => boxes[n.id].y));
    expect(lbMaxY).toBeLessThan(400 * 60);
    const remoteX = boxes['remote-endpoint:r1'].x;
    expect([...lbXs].every((x) => x < remoteX)).toBe(true);
  });
});
