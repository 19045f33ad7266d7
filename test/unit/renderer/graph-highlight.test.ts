// What the topology marks, without a DOM: the walk's path on the visible graph (hops onto drawn
// nodes, a folded group standing for what it hides, the edges the packet follows, jumps where no
// drawn edge joins two hops), the finding's objects, and the flow with all of it marked.
import { describe, expect, it } from 'vitest';
import type { WalkHop, WalkResult } from '../../../analysis/walk/types.ts';
import { visibleGraph, visibleNodeFor, visibleNodesFor } from '../../../renderer/src/graph/visible-graph.ts';
import { toFlow, jumpEdges } from '../../../renderer/src/graph/to-flow.ts';
import { layoutOf } from './graph-helpers.ts';
import { walkPath } from '../../../renderer/src/graph/walk-path.ts';
import { highlightFlow } from '../../../renderer/src/graph/highlight-flow.ts';
import { topoIndex } from '../../../renderer/src/walk/model.ts';
import { syntheticTopology } from './topology-fixture.ts';

const EP = 'endpoint:00000000-aaaa-bbbb-cccc-dddddddddddd';
const LB = 'loadbalancer:lb0';
const REMOTE = 'remote-endpoint:r1';

function hop(nodes: string[], extra: Partial<WalkHop> = {}): WalkHop {
  return { at: 'x', kind: 'vfp', action: 'allow', nodes, ...extra };
}

function walk(hops: WalkHop[], path: string[] = []): WalkResult {
  return {
    flow: { srcIp: '10.244.0.3', dstIp: '10.96.0.1', dstPort: 443, proto: 'tcp' },
    verdict: 'forwarded',
    reason: 'r',
    hops,
    deciding: 0,
    final: { srcIp: '10.244.0.3', dstIp: '10.240.255.5', proto: 'tcp' },
    egress: { nextHop: '10.0.0.1' },
    path,
  };
}

// Pod → service: the pod's port, then the load balancer's DNAT reaching a remote backend, then a
// next hop the graph does not draw. The VFP port is named like the trace names it (port:<guid>).
const podToService = walk([hop([EP], { kind: 'source' }), hop(['port:00000000-AAAA-BBBB-CCCC-DDDDDDDDDDDD', LB, REMOTE], { action: 'DNAT' }), hop(['next-hop:10.0.0.1'], { kind: 'host-route' })]);

describe('walk path on the visible graph', () => {
  const g = syntheticTopology(2, 1);
  const index = topoIndex(g.nodes);

  it('lights the hops’ nodes with their numbers, the current hop, and the edges the packet follows', () => {
    const vis = visibleGraph(g, new Set());
    const p = walkPath(podToService, 1, index, vis);
    expect([...p.nodes]).toEqual([
      [EP, [1, 2]],
      [LB, [2]],
      [REMOTE, [2]],
    ]);
    expect([...p.current]).toEqual([EP, LB, REMOTE]);
    expect(p.unplaced).toEqual([2]);
    // The load balancer's edge points at the pod: the packet runs along it backwards.
    expect(p.edges.get(`lb-dip:${LB}->${EP}`)).toBe('reverse');
    expect(p.edges.get(`lb-dip:${LB}->${REMOTE}`)).toBe('forward');
    expect(p.jumps).toEqual([]);
  });

  it('lights a pod drawn without its folded compartment as itself, and a folded group for what it hides', () => {
    const vis = visibleGraph(g, new Set(['compartment:2']));
    const p = walkPath(podToService, 0, index, vis);
    expect(p.nodes.get(EP)).toEqual([1, 2]);
    expect(p.nodes.has('compartment:2')).toBe(false);
    expect([...p.current]).toEqual([EP]);
    expect(p.edges.get(`lb-dip:${LB}->${EP}`)).toBe('reverse');
    const grouped = syntheticTopology(2, 1, { lbGroup: true });
    const gp = walkPath(podToService, 1, topoIndex(grouped.nodes), visibleGraph(grouped, new Set(['lb-group:0'])));
    expect(gp.nodes.get('lb-group:0')).toEqual([2]);
    expect(gp.nodes.has(LB)).toBe(false);
  });

  it('joins hops by a short chain of drawn edges (lighting what it passes) or by a jump', () => {
    const vis = visibleGraph(g, new Set());
    // network → endpoint → load balancer: two drawn edges, the endpoint lit on the way without a number.
    const chained = walkPath(walk([hop(['network:n1']), hop([LB])]), 0, index, vis);
    expect(chained.nodes.get(EP)).toEqual([]);
    expect(chained.jumps).toEqual([]);
    // The uplink is five drawn edges away from the remote backend: too far to be the packet's way.
    const far = walkPath(walk([hop(['uplink:eth']), hop([REMOTE])]), 0, index, vis);
    expect(far.jumps).toEqual([{ id: `walk-jump:uplink:eth->${REMOTE}`, source: 'uplink:eth', target: REMOTE }]);
    expect(far.edges.size).toBe(0);
  });
});

describe('objects on the visible graph', () => {
  const g = syntheticTopology(2, 1);

  it('maps an object to its node, or to the folded group hiding it', () => {
    const ref = { type: 'endpoint' as const, id: '00000000-aaaa-bbbb-cccc-dddddddddddd' };
    expect(visibleNodeFor(g, visibleGraph(g, new Set()), ref)).toBe(EP);
    expect(visibleNodeFor(g, visibleGraph(g, new Set(['compartment:2'])), ref)).toBe(EP);
    expect(visibleNodeFor(g, visibleGraph(g, new Set(['compartment:2'])), { type: 'compartment', id: '2' })).toBe(EP);
    const grouped = syntheticTopology(1, 2, { lbGroup: true });
    expect(visibleNodeFor(grouped, visibleGraph(grouped, new Set(['lb-group:0'])), { type: 'loadbalancer', id: 'lb1' })).toBe('lb-group:0');
    expect(visibleNodeFor(g, visibleGraph(g, new Set()), { type: 'route', id: 'nope' })).toBeUndefined();
  });

  it('maps a finding’s objects, leaving out those the graph does not draw', () => {
    const vis = visibleGraph(g, new Set());
    const ids = visibleNodesFor(g, vis, [{ type: 'loadbalancer', id: 'lb0' }, { type: 'route', id: 'nope' }, { type: 'network', id: 'n1' }]);
    expect([...ids]).toEqual([LB, 'network:n1']);
  });
});

describe('marking the flow', () => {
  const g = syntheticTopology(2, 1);
  const vis = visibleGraph(g, new Set());
  const boxes = layoutOf(g, new Set());
  const flow = toFlow(vis, boxes);
  const index = topoIndex(g.nodes);

  it('leaves the flow as it is when nothing is lit', () => {
    const out = highlightFlow(flow, {}, vis, boxes);
    expect(out.nodes.every((n, i) => n === flow.nodes[i])).toBe(true);
    expect(out.edges.every((e, i) => e === flow.edges[i])).toBe(true);
  });

  it('marks the walk’s nodes, the current hop and the edges it follows; the rest keep their identity', () => {
    const out = highlightFlow(flow, { walk: walkPath(podToService, 0, index, vis) }, vis, boxes);
    const byId = new Map(out.nodes.map((n) => [n.id, n]));
    expect(byId.get(EP)!.className).toContain('walk-current');
    expect(byId.get(EP)!.data.walk).toEqual({ hops: [1, 2], current: true });
    expect(byId.get(LB)!.className).toContain('walk-lit');
    expect(byId.get(LB)!.className).not.toContain('walk-current');
    expect(byId.get('uplink:eth')).toBe(flow.nodes.find((n) => n.id === 'uplink:eth'));
    const walked = out.edges.filter((e) => e.className?.includes('walk-edge'));
    expect(walked.map((e) => e.id).sort()).toEqual([`lb-dip:${LB}->${EP}`, `lb-dip:${LB}->${REMOTE}`]);
    expect(out.edges.find((e) => e.id === `lb-dip:${LB}->${EP}`)!.className).toContain('walk-reverse');
    // Drawn bold above the rest.
    expect(walked.every((e) => e.zIndex === 20)).toBe(true);
  });

  it('adds a dashed jump between drawn hops no drawn edge joins, attached by where its ends are', () => {
    const back = walkPath(walk([hop([REMOTE]), hop(['uplink:eth'])]), 0, index, vis);
    const out = highlightFlow(flow, { walk: back }, vis, boxes);
    const jump = out.edges.find((e) => e.id === `walk-jump:${REMOTE}->uplink:eth`)!;
    expect(jump.className).toBe('walk-edge walk-jump');
    expect([jump.sourceHandle, jump.targetHandle]).toEqual(['back-out', 'back-in']);
    expect(out.edges).toHaveLength(flow.edges.length + 1);
  });

  it('marks a finding’s objects', () => {
    const out = highlightFlow(flow, { finding: new Set([LB]) }, vis, boxes);
    expect(out.nodes.filter((n) => n.className?.includes('finding-lit')).map((n) => n.id)).toEqual([LB]);
  });

  it('draws no jump to a node that has no box yet', () => {
    expect(jumpEdges([{ id: 'j', source: 'uplink:eth', target: REMOTE }], vis, boxes, new Set(['uplink:eth']))).toEqual([]);
    const forward = jumpEdges([{ id: 'j', source: 'uplink:eth', target: REMOTE }], vis, boxes, new Set(['uplink:eth', REMOTE]));
    expect([forward[0].sourceHandle, forward[0].targetHandle]).toEqual(['out', 'in']);
  });
});
