// A synthetic TopologyGraph shaped like the topology builder's output (uplink → vSwitch → network →
// compartments holding endpoints → load balancers → remote endpoints), of any size; with `ports`,
// each endpoint's VFP port attached to it (the builder's `attached`, merged as full-graph.ts does).
import type { TopoEdge, TopoNode, TopologyGraph } from '../../../analysis/view-models/types.ts';

export function syntheticTopology(pods = 3, lbs = 2, opts: { lbGroup?: boolean; ports?: boolean } = {}): TopologyGraph {
  const nodes: TopoNode[] = [];
  const edges: TopoEdge[] = [];
  const edge = (source: string, target: string, kind: TopoEdge['kind'], extra: Partial<TopoEdge> = {}) =>
    edges.push({ id: `${kind}:${source}->${target}`, source, target, kind, ...extra });
  nodes.push({ id: 'uplink:eth', kind: 'uplink', label: 'Ethernet', details: ['external NIC (uplink)'], flags: [], rank: 0, ref: { type: 'port', id: 'ext' } });
  nodes.push({ id: 'vswitch:1', kind: 'vswitch', label: 'vSwitch', details: ['vSwitch'], flags: [], rank: 1 });
  nodes.push({ id: 'network:n1', kind: 'network', label: 'cbr0', details: ['l2bridge', '10.244.0.0/24'], flags: [], rank: 2, ref: { type: 'network', id: 'n1' } });
  edge('uplink:eth', 'vswitch:1', 'uplink');
  edge('vswitch:1', 'network:n1', 'attach');
  for (let i = 0; i < pods; i++) {
    const guid = `0000000${i}-aaaa-bbbb-cccc-dddddddddddd`.slice(-36);
    nodes.push({ id: `compartment:${i + 2}`, kind: 'compartment', label: `Compartment ${i + 2}`, details: [], flags: [], rank: 3, ref: { type: 'compartment', id: String(i + 2) } });
    nodes.push({
      id: `endpoint:${guid}`,
      kind: 'endpoint',
      label: `10.244.0.${i + 3}`,
      details: ['00-15-5D-00-00-01', `port ${guid.slice(0, 8)}`],
      flags: i === 0 ? ['blocked'] : [],
      rank: 3,
      parent: `compartment:${i + 2}`,
      ref: { type: 'endpoint', id: guid },
      guid,
    });
    edge('network:n1', `endpoint:${guid}`, 'attach');
    if (opts.ports) {
      nodes.push({ id: `port:p${i}`, kind: 'vfp-port', label: `VFP port p${i}`, details: ['3 layers · 9 groups · 40 rules'], flags: i === 0 ? ['blocked'] : [], rank: 3, parent: `compartment:${i + 2}`, attachedTo: `endpoint:${guid}`, ref: { type: 'port', id: `p${i}` } });
      edge(`endpoint:${guid}`, `port:p${i}`, 'port');
    }
  }
  const lbIds: string[] = [];
  for (let j = 0; j < lbs; j++) {
    const id = `loadbalancer:lb${j}`;
    lbIds.push(id);
    nodes.push({ id, kind: 'loadbalancer', label: `10.96.0.${j + 1}:443/TCP`, details: ['→ :6443'], flags: [], rank: 4, ref: { type: 'loadbalancer', id: `lb${j}` }, ...(opts.lbGroup ? { parent: 'lb-group:0' } : {}) });
    if (pods) edge(id, `endpoint:${nodes.find((n) => n.kind === 'endpoint')!.id.slice(9)}`, 'lb-dip');
  }
  if (opts.lbGroup) nodes.push({ id: 'lb-group:0', kind: 'lb-group', label: `${lbs} services`, details: [], flags: [], rank: 4, count: lbs, members: lbIds.map((id) => ({ type: 'loadbalancer' as const, id: id.slice(13) })) });
  nodes.push({ id: 'remote-endpoint:r1', kind: 'remote-endpoint', label: '10.240.255.5', details: [], flags: ['remote'], rank: 5, ref: { type: 'endpoint', id: 'r1' } });
  nodes.push({ id: 'remote-endpoint:gone', kind: 'remote-endpoint', label: 'gone', details: [], flags: ['dangling'], rank: 5 });
  if (lbs) {
    edge(lbIds[0], 'remote-endpoint:r1', 'lb-dip');
    edge(lbIds[0], 'remote-endpoint:gone', 'lb-dip', { broken: true });
  }
  return { nodes, edges, collapsed: !!opts.lbGroup };
}
