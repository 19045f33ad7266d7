// What the graph draws on and over its nodes, without a DOM: the foot row's badges (never over each
// other), faults on the objects findings are about (a red route for a remote subnet VFP lacks), the
// summary layer's counts and where its cards go, the keyboard's order, a dense graph's links.
import { describe, expect, it } from 'vitest';
import type { TopologyGraph } from '../../../analysis/view-models/types.ts';
import { badgeWidth, expanderWidth, kindWidth, layoutBadges, layoutWidth } from '../../../renderer/src/graph/badge-layout.ts';
import { faultMarks, findingNodeIds, nodeIndex, type FindingLike } from '../../../renderer/src/graph/fault-marks.ts';
import { CARD_GAP, cardLayout, cardSize, columnCounts, summaryModel } from '../../../renderer/src/graph/summary.ts';
import { placeMove, type CameraMove, type Viewport } from '../../../renderer/src/graph/camera-moves.ts';
import { MIN_READABLE_ZOOM } from '../../../renderer/src/graph/lod.ts';
import { focusOrder, nextInOrder } from '../../../renderer/src/graph/focus-order.ts';
import { DENSE_EDGES, thinEdges } from '../../../renderer/src/graph/highlight-flow.ts';
import { visibleGraph } from '../../../renderer/src/graph/visible-graph.ts';
import { toFlow } from '../../../renderer/src/graph/to-flow.ts';
import { layoutOf } from './graph-helpers.ts';
import { syntheticTopology } from './topology-fixture.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../../../services/bundle/load.ts';
import { buildTopology } from '../../../analysis/topology.ts';
import { modelFindings } from '../../../analysis/view-models/findings.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const EP0 = 'endpoint:00000000-aaaa-bbbb-cccc-dddddddddddd';

describe('badges in a node’s foot', () => {
  const ROOM = 195;

  it('never lays out more than the room it has, whatever the flags', () => {
    const words = ['dangling', 'no-endpoint', 'blocked', 'unresolved', 'remote', 'apipa', 'degraded', 'no-adapter', 'host'];
    for (let n = 0; n <= words.length; n++) {
      for (const expander of [undefined, 'port', '12 inside']) {
        const flags = words.slice(0, n).map((flag, i) => ({ flag, severity: (['error', 'warning', 'info'] as const)[i % 3] }));
        const l = layoutBadges({ flags, kind: 'Remote endpoint', expander }, ROOM);
        expect(layoutWidth(l), `${n} flags, ${expander}`).toBeLessThanOrEqual(ROOM);
        // Every flag is either drawn or counted in "+N".
        expect(l.flags.length + l.more).toBe(n);
        expect(l.expander).toBe(expander);
      }
    }
  });

  it('drops the kind before any flag, and shows the worst flags first', () => {
    // "dangling" and "REMOTE ENDPOINT" once ran into each other: now one of them gives way.
    const l = layoutBadges({ flags: [{ flag: 'remote', severity: 'info' }, { flag: 'dangling', severity: 'error' }], kind: 'Remote endpoint' }, badgeWidth('dangling') + badgeWidth('remote') + 10);
    expect(l.flags.map((f) => f.flag)).toEqual(['dangling', 'remote']);
    expect(l.kind).toBeUndefined();
    const roomy = layoutBadges({ flags: [{ flag: 'dangling', severity: 'error' }], kind: 'Remote endpoint' }, ROOM);
    expect(roomy.kind).toBe('Remote endpoint');
    expect(layoutWidth(roomy)).toBe(badgeWidth('dangling') + kindWidth('Remote endpoint') + 4);
  });

  it('keeps the control that opens a folded node, and counts the flags that do not fit', () => {
    const flags = ['no-endpoint', 'unresolved', 'degraded', 'no-adapter'].map((flag) => ({ flag, severity: 'warning' as const }));
    const l = layoutBadges({ flags, kind: 'Endpoint', expander: '3 inside' }, expanderWidth('3 inside') + badgeWidth('no-endpoint') + badgeWidth('+3') + 12);
    expect(l.flags.map((f) => f.flag)).toEqual(['no-endpoint']);
    expect(l.more).toBe(3);
    expect(l.expander).toBe('3 inside');
  });
});

describe('faults on the graph', () => {
  // An overlay node: a remote subnet HNS routes (network → subnet → next hop) and VFP lacks on the pods' ports.
  const g: TopologyGraph = syntheticTopology(2, 1, { ports: true });
  g.nodes.push({ id: 'remote-subnet:10.244.60.0/24', kind: 'remote-subnet', label: '10.244.60.0/24', details: [], flags: [], rank: 6, ref: { type: 'remote-subnet', id: '10.244.60.0/24' } });
  g.nodes.push({ id: 'next-hop:10.240.0.9', kind: 'next-hop', label: '10.240.0.9', details: [], flags: [], rank: 7 });
  g.nodes.push({ id: 'remote-subnet:10.244.61.0/24', kind: 'remote-subnet', label: '10.244.61.0/24', details: [], flags: [], rank: 6, ref: { type: 'remote-subnet', id: '10.244.61.0/24' } });
  g.edges.push({ id: 'route:n1->60', source: 'network:n1', target: 'remote-subnet:10.244.60.0/24', kind: 'route' });
  g.edges.push({ id: 'encap:60->hop', source: 'remote-subnet:10.244.60.0/24', target: 'next-hop:10.240.0.9', kind: 'encap' });
  g.edges.push({ id: 'route:n1->61', source: 'network:n1', target: 'remote-subnet:10.244.61.0/24', kind: 'route' });
  // drift-remote-subnet-route's shape (analysis/checks/drift.ts): the prefix, the provider address, the ports.
  const drift: FindingLike = {
    key: 'drift-remote-subnet-route#1',
    severity: 'error',
    title: 'REMOTESUBNETROUTE for 10.244.60.0/24 missing on 2 of 2 pod ports',
    refs: [{ type: 'remote-subnet', id: '10.244.60.0/24' }, { type: 'port', id: 'p0' }, { type: 'port', id: 'p1' }],
    objects: ['10.244.60.0/24', '10.240.0.9', 'P0', 'P1'],
  };
  const info: FindingLike = { key: 'x#1', severity: 'info', title: 'fyi', refs: [{ type: 'network', id: 'n1' }], objects: [] };
  const index = nodeIndex(g);

  it('finds the nodes a finding is about, from its refs and the subnets and next hops it names', () => {
    expect([...findingNodeIds(index, drift)].sort()).toEqual(['next-hop:10.240.0.9', 'port:p0', 'port:p1', 'remote-subnet:10.244.60.0/24']);
  });

  it('draws the route to a remote subnet VFP lacks, and its tunnel, in the finding’s colour; the healthy subnet stays as it is', () => {
    const vis = visibleGraph(g, new Set());
    const m = faultMarks(index, vis, [drift, info]);
    expect(m.edges.get('route:n1->60')).toBe('error');
    expect(m.edges.get('encap:60->hop')).toBe('error');
    expect(m.edges.has('route:n1->61')).toBe(false);
    expect(m.nodes.get('remote-subnet:10.244.60.0/24')).toEqual({ severity: 'error', findings: [{ key: drift.key, title: drift.title, severity: 'error' }] });
    expect(m.nodes.has('remote-subnet:10.244.61.0/24')).toBe(false);
    // Info findings mark nothing.
    expect(m.nodes.has('network:n1')).toBe(false);
  });

  it('marks the node that stands for a folded object: a port folded into its endpoint, a load balancer into its group', () => {
    expect(faultMarks(index, visibleGraph(g, new Set([EP0])), [drift]).nodes.has(EP0)).toBe(true);
    const grouped = syntheticTopology(1, 2, { lbGroup: true });
    const lb: FindingLike = { key: 'lb#1', severity: 'warning', title: 'stale', refs: [{ type: 'loadbalancer', id: 'lb1' }], objects: [] };
    expect([...faultMarks(nodeIndex(grouped), visibleGraph(grouped, new Set(['lb-group:0'])), [lb]).nodes.keys()]).toEqual(['lb-group:0']);
    expect([...faultMarks(nodeIndex(grouped), visibleGraph(grouped, new Set()), [lb]).nodes.keys()]).toEqual(['loadbalancer:lb1']);
  });

  it('keeps the worst severity and lists errors first', () => {
    const warn: FindingLike = { key: 'w#1', severity: 'warning', title: 'w', refs: [{ type: 'port', id: 'p0' }], objects: [] };
    const m = faultMarks(index, visibleGraph(g, new Set()), [warn, drift]);
    expect(m.nodes.get('port:p0')!.severity).toBe('error');
    expect(m.nodes.get('port:p0')!.findings.map((f) => f.key)).toEqual([drift.key, 'w#1']);
  });
});

describe('a fault on an adapter the finding names, on a real bundle', () => {
  it('marks the APIPA host vNIC “vEthernet (Ethernet)” red: the finding names the adapter, not an HNS or VFP id', async () => {
    const model = await loadBundle(path.join(repoRoot, 'test/fixtures/foreign-faults/overlay-apipa-host-vnic'));
    const g = buildTopology(model);
    const vnic = g.nodes.find((n) => n.kind === 'host-vnic' && n.label === 'vEthernet (Ethernet)');
    expect(vnic).toBeDefined();
    const apipa = modelFindings(model).find((f) => f.id === 'apipa-management-ip');
    expect(apipa?.objects).toContain('vEthernet (Ethernet)');
    const index = nodeIndex(g);
    expect([...findingNodeIds(index, apipa!)]).toContain(vnic!.id);
    // Names match whatever their case; an unknown name marks nothing.
    expect(index.forAdapter('VETHERNET (ETHERNET)')).toBe(vnic!.id);
    expect(index.forAdapter('vEthernet (nothing)')).toBeUndefined();
    const m = faultMarks(index, visibleGraph(g, new Set()), modelFindings(model));
    expect(m.nodes.get(vnic!.id)?.severity).toBe('error');
  });
});

describe('summary layer', () => {
  it('counts what each column holds, folded or not', () => {
    const g = syntheticTopology(3, 4, { ports: true, lbGroup: true });
    const lines = columnCounts(g);
    expect(lines[0]).toEqual(['1 uplink', '1 vSwitch', '1 HNS network']);
    expect(lines[1]).toEqual(['3 endpoints', '3 compartments', '3 VFP ports']);
    expect(lines[2]).toEqual(['4 load balancers in 1 group']);
    expect(lines[3]).toEqual(['2 remote endpoints']);
  });

  it('draws every visible node as a box, marked when a finding is about it or a walk passes', () => {
    const g = syntheticTopology(3, 1);
    const vis = visibleGraph(g, new Set());
    const boxes = layoutOf(g, new Set());
    const marks = { nodes: new Map([['network:n1', { severity: 'error' as const, findings: [] }]]), edges: new Map() };
    const s = summaryModel(g, vis, boxes, marks, new Map([['uplink:eth', [1]]]))!;
    expect(s.rects.map((r) => r.id).sort()).toEqual(vis.nodes.map((n) => n.id).sort());
    expect(s.rects.find((r) => r.id === 'network:n1')!.fault).toBe('error');
    expect(s.rects.find((r) => r.id === 'uplink:eth')!.hops).toEqual([1]);
    expect(s.columns.map((c) => c.title)).toEqual(['This node', 'Pods and host', 'Load balancers', 'Remote endpoints']);
    expect(s.columns[0].faults).toEqual({ error: 1, warning: 0 });
    for (const c of s.columns) {
      expect(c.box.x).toBeGreaterThanOrEqual(s.bounds.x);
      expect(c.box.x + c.box.width).toBeLessThanOrEqual(s.bounds.x + s.bounds.width);
    }
  });

  it('puts the cards on the canvas, in rows along its top: none over another, none cut off', () => {
    const col = (x: number, title: string) => ({ box: { x, y: 0, width: 200, height: 500 }, title, lines: ['251 endpoints', '2 host vNICs'], faults: { error: 0, warning: 0 } });
    const cols = [col(0, 'This node'), col(300, 'Pods and host'), col(600, 'Load balancers'), col(900, 'Remote endpoints'), col(1200, 'Remote subnets')];
    const width = 640;
    // Zoomed in: one row, each card over its column.
    const wide = cardLayout(cols, { x: 0, zoom: 1 }, 2000);
    expect(wide.places.map((p) => p.row)).toEqual([0, 0, 0, 0, 0]);
    // Zoomed far out, columns 30 px apart, on a narrow canvas: more rows, and still no overlap.
    for (const vp of [{ x: 200, zoom: 0.1 }, { x: -500, zoom: 0.1 }, { x: 900, zoom: 0.05 }]) {
      const { places, height } = cardLayout(cols, vp, width);
      expect(Math.max(...places.map((p) => p.row))).toBeGreaterThan(0);
      const boxes = cols.map((c, i) => ({ ...places[i], height: cardSize(c).height }));
      for (const a of boxes) {
        expect(a.left).toBeGreaterThanOrEqual(CARD_GAP);
        expect(a.left + a.width).toBeLessThanOrEqual(width - CARD_GAP);
        expect(a.top + a.height).toBeLessThanOrEqual(height);
        for (const b of boxes) {
          if (a === b) continue;
          const apart = a.left + a.width <= b.left || b.left + b.width <= a.left || a.top + a.height <= b.top || b.top + b.height <= a.top;
          expect(apart, `${JSON.stringify(a)} / ${JSON.stringify(b)}`).toBe(true);
        }
      }
    }
  });

  it('fits a graph seen as its summary below the room its cards take', () => {
    const g = syntheticTopology(40, 1);
    const vis = visibleGraph(g, new Set());
    const boxes = layoutOf(g, new Set());
    const screen = { width: 640, height: 700 };
    const plain = placeMove(boxes, vis, screen) as Extract<CameraMove, { kind: 'viewport' }>;
    expect(plain.viewport.zoom).toBeLessThan(MIN_READABLE_ZOOM);
    const model = summaryModel(g, vis, boxes)!;
    const room = (vp: Viewport) => cardLayout(model.columns, vp, screen.width).height;
    const m = placeMove(boxes, vis, screen, undefined, room) as Extract<CameraMove, { kind: 'viewport' }>;
    // The graph's top is below the cards (they may take half the canvas at most).
    expect(room(m.viewport)).toBeLessThan(screen.height / 2);
    expect(model.bounds.y * m.viewport.zoom + m.viewport.y).toBeGreaterThanOrEqual(room(m.viewport) - 0.5);
    expect((model.bounds.y + model.bounds.height) * m.viewport.zoom + m.viewport.y).toBeLessThanOrEqual(screen.height);
  });
});

describe('keyboard order', () => {
  it('walks the nodes column by column, top to bottom, a group’s children right after it', () => {
    const g = syntheticTopology(2, 1);
    const vis = visibleGraph(g, new Set());
    const order = focusOrder(layoutOf(g, new Set()), vis);
    expect(order.slice(0, 3)).toEqual(['uplink:eth', 'vswitch:1', 'network:n1']);
    const c2 = order.indexOf('compartment:2');
    expect(order[c2 + 1]).toBe(EP0);
    expect(order.indexOf('loadbalancer:lb0')).toBeGreaterThan(order.indexOf(EP0));
    expect(order).toHaveLength(vis.nodes.length);
  });

  it('steps forward and back, and off either end', () => {
    expect(nextInOrder(['a', 'b', 'c'], 'b', false)).toBe('c');
    expect(nextInOrder(['a', 'b', 'c'], 'b', true)).toBe('a');
    expect(nextInOrder(['a', 'b', 'c'], 'c', false)).toBeUndefined();
    expect(nextInOrder(['a', 'b', 'c'], 'a', true)).toBeUndefined();
    expect(nextInOrder(['a', 'b'], 'gone', false)).toBe('a');
    expect(nextInOrder([], 'a', false)).toBeUndefined();
  });
});

describe('a dense graph’s links', () => {
  it('draws backend links only where they concern what is selected, walked or faulty', () => {
    const g = syntheticTopology(1, 1);
    for (let i = 0; i < DENSE_EDGES + 10; i++) {
      g.nodes.push({ id: `loadbalancer:x${i}`, kind: 'loadbalancer', label: `x${i}`, details: [], flags: [], rank: 4 });
      g.edges.push({ id: `d${i}`, source: `loadbalancer:x${i}`, target: EP0, kind: 'lb-dip' });
    }
    const vis = visibleGraph(g, new Set());
    const flow = toFlow(vis, layoutOf(g, new Set()));
    const thin = thinEdges(flow.edges, {});
    expect(thin.some((e) => e.data?.kind === 'lb-dip')).toBe(false);
    expect(thin.filter((e) => e.data?.kind !== 'lb-dip').length).toBe(flow.edges.filter((e) => e.data?.kind !== 'lb-dip').length);
    expect(thinEdges(flow.edges, { selectedId: 'loadbalancer:x3' }).filter((e) => e.data?.kind === 'lb-dip').map((e) => e.id)).toEqual(['d3']);
    expect(thinEdges(flow.edges, { selectedId: EP0 }).filter((e) => e.data?.kind === 'lb-dip').length).toBe(DENSE_EDGES + 11);
    // A sparse graph keeps everything.
    const small = toFlow(visibleGraph(syntheticTopology(2, 2), new Set()), layoutOf(syntheticTopology(2, 2), new Set()));
    expect(thinEdges(small.edges, {})).toBe(small.edges);
  });
});
