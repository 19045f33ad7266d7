// Bundles with only some files: the graph shows what those files say and nothing else, and never throws.
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../../analysis/topology.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { expectValidGraph, generated, nodesOf } from './helpers.ts';

const only = (...files: string[]) => (p: string) => files.includes(p);

describe('partial bundles', () => {
  it('an empty bundle gives an empty graph', () => {
    const g = buildTopology(assembleModel([], { location: 'mem:empty', kind: 'folder', root: '' }));
    expect(g).toEqual({ nodes: [], edges: [], collapsed: false, attached: { nodes: [], edges: [] } });
  });

  it('only ip.txt: the default-route adapter as uplink, host adapters, pod adapters in their compartments', () => {
    const { node, model } = generated({}, only('ip.txt'));
    const g = buildTopology(model);
    expectValidGraph(g);
    const uplinks = nodesOf(g, 'uplink');
    expect(uplinks.map((n) => n.label)).toEqual(['vEthernet (Ethernet)']);
    expect(uplinks[0].ref).toEqual({ type: 'adapter', id: '1/vEthernet (Ethernet)' });
    expect(uplinks[0].details).toContain(`MAC ${node.hostMac}`);
    for (const c of node.compartments.filter((x) => x.id !== 1)) {
      for (const a of c.adapters) {
        const n = g.nodes.find((x) => x.id === `adapter:${c.id}/${a.name}`)!;
        expect(n, a.name).toBeDefined();
        expect(n.kind).toBe('endpoint');
        expect(n.label).toBe(a.ipv4);
        expect(n.parent).toBe(`compartment:${c.id}`);
        // Whether an HNS endpoint owns it is unknown here, so it is not flagged.
        expect(n.flags).toEqual([]);
      }
    }
    expect(nodesOf(g, 'network')).toEqual([]);
    expect(nodesOf(g, 'loadbalancer')).toEqual([]);
    expect(nodesOf(g, 'vswitch')).toEqual([]);
  });

  it('only vfpOutput.txt: every port on one unnamed vSwitch, not flagged', () => {
    const { node, model } = generated({}, only('vfpOutput.txt'));
    const g = buildTopology(model);
    expectValidGraph(g);
    const sw = nodesOf(g, 'vswitch');
    expect(sw.length).toBe(1);
    expect(sw[0].id).toBe('vswitch:?');
    for (const p of node.expected.vfpPorts) {
      const n = g.nodes.find((x) => x.ref?.type === 'port' && x.ref.id === p.name.toLowerCase())!;
      expect(n, p.name).toBeDefined();
      expect(n.details.some((d) => d.endsWith(`${p.rules} rules`))).toBe(true);
      expect(n.flags).toEqual([]);
      expect(g.edges.some((e) => e.source === sw[0].id && e.target === n.id)).toBe(true);
    }
  });

  it('ports.txt and vfpOutput.txt: uplink and host vNIC by friendly name, switch by name', () => {
    const { node, model } = generated({}, only('ports.txt', 'vfpOutput.txt'));
    const g = buildTopology(model);
    expectValidGraph(g);
    const ext = node.expected.vfpPorts.find((p) => p.kind === 'external')!;
    const host = node.expected.vfpPorts.find((p) => p.kind === 'host')!;
    expect(g.nodes.find((n) => n.id === `port:${ext.name.toLowerCase()}`)!.kind).toBe('uplink');
    expect(g.nodes.find((n) => n.id === `port:${host.name.toLowerCase()}`)!.kind).toBe('host-vnic');
    expect(nodesOf(g, 'vswitch').map((n) => n.label)).toEqual([node.vfpPorts[0].switchFriendlyName]);
  });

  it('only hnsdiag.txt: networks, endpoints and load balancers from the listing', () => {
    const { node, model } = generated({}, only('hnsdiag.txt'));
    const g = buildTopology(model);
    expectValidGraph(g);
    for (const n of node.expected.networks) expect(g.nodes.some((x) => x.id === `network:${n.id.toLowerCase()}`)).toBe(true);
    for (const e of node.expected.endpoints) expect(g.nodes.some((x) => x.id === `endpoint:${e.id.toLowerCase()}`), e.ip).toBe(true);
    expect(nodesOf(g, 'compartment')).toEqual([]);
    expect(g.nodes.some((n) => n.flags.includes('no-port') || n.flags.includes('no-adapter'))).toBe(false);
  });

  it('only policy.txt: load balancers whose DIPs are unresolved, not dangling', () => {
    const { node, model } = generated({}, only('policy.txt'));
    const g = buildTopology(model);
    expectValidGraph(g);
    expect(nodesOf(g, 'loadbalancer').length).toBe(node.expected.loadBalancers.length);
    const dips = nodesOf(g, 'remote-endpoint');
    expect(dips.length).toBeGreaterThan(0);
    for (const d of dips) expect(d.flags).toEqual(['unresolved']);
    expect(g.edges.some((e) => e.broken)).toBe(false);
  });

  it('network.txt and endpoint.txt: endpoints on their network, no join flags', () => {
    const { node, model } = generated({ network: 'overlay' }, only('network.txt', 'endpoint.txt'));
    const g = buildTopology(model);
    expectValidGraph(g);
    const pod = node.networks.find((n) => n.type !== 'nat')!;
    for (const e of node.expected.endpoints.filter((x) => !x.isRemote)) {
      const n = g.nodes.find((x) => x.id === `endpoint:${e.id.toLowerCase()}`)!;
      expect(n.flags).toEqual([]);
      expect(n.parent).toBeUndefined();
      expect(g.edges.some((x) => x.source === `network:${pod.id.toLowerCase()}` && x.target === n.id)).toBe(true);
    }
    // Overlay remote subnets come from the network itself.
    for (const rs of node.expected.remoteSubnets) expect(g.edges.some((e) => e.source === `remote-subnet:${rs.prefix}` && e.target === `next-hop:${rs.nodeIp}` && e.kind === 'encap')).toBe(true);
    expect(nodesOf(g, 'uplink').map((n) => n.id)).toEqual([`uplink:${pod.networkAdapterName!.toLowerCase()}`]);
  });

  it('only routes.txt: the gatewayed routes to remote pod subnets', () => {
    const { node, model } = generated({}, only('routes.txt'));
    const g = buildTopology(model);
    expectValidGraph(g);
    for (const rs of node.expected.remoteSubnets) {
      expect(g.edges.some((e) => e.source === `remote-subnet:${rs.prefix}` && e.target === `next-hop:${rs.nodeIp}` && e.kind === 'route')).toBe(true);
    }
    expect(nodesOf(g, 'remote-subnet').length).toBe(node.expected.remoteSubnets.length);
  });

  it('never throws on any subset of the files', () => {
    const files = ['network.txt', 'endpoint.txt', 'namespaces.txt', 'policy.txt', 'hnsdiag.txt', 'ip.txt', 'routes.txt', 'ports.txt', 'vfpOutput.txt'];
    for (const network of ['l2bridge', 'overlay'] as const) {
      // A spread of the 512 subsets (every 37th), each also with its load balancers grouped.
      for (let mask = 0; mask < 1 << files.length; mask += 37) {
        const keep = files.filter((_, i) => mask & (1 << i));
        const { model } = generated({ network }, only(...keep));
        expectValidGraph(buildTopology(model));
        expectValidGraph(buildTopology(model, { lbGroupThreshold: 3 }));
      }
    }
  });
});
