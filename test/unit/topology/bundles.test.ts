// The demo bundles that ship with the app and the hand-written foreign bundles, read from disk.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { buildTopology } from '../../../analysis/topology.ts';
import { edgeBetween, expectValidGraph, nodesOf } from './helpers.ts';

const repo = path.resolve(__dirname, '../../..');

describe('demo bundles', () => {
  it('l2bridge-node: uplink Ethernet → cbr0 switch → cbr0 network → vEthernet (Ethernet), routes to the remote nodes', async () => {
    const m = await loadBundle(path.join(repo, 'assets/demo/l2bridge-node'));
    const g = buildTopology(m);
    expectValidGraph(g);
    const [up] = nodesOf(g, 'uplink');
    expect(up.label).toBe('Ethernet');
    expect(up.details).toContain('node IP 10.240.0.19');
    const [sw] = nodesOf(g, 'vswitch');
    expect(sw.label).toBe('cbr0');
    expect(edgeBetween(g, up.id, sw.id).length).toBe(1);
    const cbr0 = g.nodes.find((n) => n.kind === 'network' && n.label === 'cbr0')!;
    expect(edgeBetween(g, sw.id, cbr0.id).length).toBe(1);
    const vnic = g.nodes.find((n) => n.kind === 'host-vnic' && n.label === 'vEthernet (Ethernet)')!;
    expect(vnic.details).toContain('10.240.0.19/16');
    expect(vnic.details).toContain('Container NIC 6490da2d');
    expect(edgeBetween(g, cbr0.id, vnic.id).length).toBe(1);
    // The NAT network's host adapter, with no port in the dump.
    const nat = g.nodes.find((n) => n.kind === 'network' && n.label === 'nat')!;
    expect(edgeBetween(g, nat.id, 'adapter:1/vEthernet (nat)').length).toBe(1);
    // The bridge endpoint (.2) lives in the host compartment, which is a group because of it.
    const bridge = g.nodes.find((n) => n.kind === 'endpoint' && n.label === '10.244.32.2')!;
    expect(bridge.parent).toBe('compartment:1');
    expect(g.nodes.find((n) => n.id === 'compartment:1')!.flags).toContain('host');
    for (const [prefix, gw] of [['10.244.33.0/24', '10.240.0.20'], ['10.244.34.0/24', '10.240.0.21']]) {
      expect(edgeBetween(g, cbr0.id, `remote-subnet:${prefix}`).map((e) => e.kind)).toEqual(['route']);
      expect(edgeBetween(g, `remote-subnet:${prefix}`, `next-hop:${gw}`).map((e) => e.kind)).toEqual(['route']);
    }
    expect(nodesOf(g, 'endpoint').length).toBe(m.endpoints!.filter((e) => !e.isRemote).length);
  });

  it('overlay-node: RemoteSubnetRoutes encapsulated to the provider addresses; no host compartment group', async () => {
    const m = await loadBundle(path.join(repo, 'assets/demo/overlay-node'));
    const g = buildTopology(m);
    expectValidGraph(g);
    const vxlan = g.nodes.find((n) => n.kind === 'network' && n.label === 'vxlan0')!;
    expect(vxlan.details).toContain('mgmt IP 10.240.0.36');
    for (const r of m.networks!.flatMap((n) => n.remoteSubnetRoutes)) {
      expect(edgeBetween(g, vxlan.id, `remote-subnet:${r.destinationPrefix}`).map((e) => e.kind)).toEqual(['route']);
      const e = edgeBetween(g, `remote-subnet:${r.destinationPrefix}`, `next-hop:${r.providerAddress}`);
      expect(e.map((x) => [x.kind, x.label])).toEqual([['encap', 'VXLAN VNI 4096']]);
    }
    // Compartment 1 holds no endpoint here: its adapters are the host vNIC and NAT nodes, not a group.
    expect(g.nodes.some((n) => n.id === 'compartment:1')).toBe(false);
    expect(g.nodes.some((n) => n.kind === 'host-vnic' && n.label === 'vEthernet (Ethernet)')).toBe(true);
    // A remote endpoint whose PA is this node is not sent to a next hop.
    expect(g.nodes.some((n) => n.id === 'next-hop:10.240.0.36')).toBe(false);
  });
});

describe.each(['aks-win-zip-2025', 'ws2019-flannel-l2bridge-2020', 'ws2022-overlay-2024'])('foreign bundle %s', (name) => {
  it('gives a valid graph with every endpoint and load balancer', async () => {
    const m = await loadBundle(path.join(repo, 'test/fixtures/foreign', name));
    const g = buildTopology(m);
    expectValidGraph(g);
    for (const e of m.endpoints ?? []) expect(g.nodes.filter((n) => n.id === `endpoint:${e.id}`).length, e.id).toBe(1);
    for (const lb of m.loadBalancers ?? []) expect(g.nodes.some((n) => n.id === `loadbalancer:${lb.id}`)).toBe(true);
    expect(nodesOf(g, 'uplink').length).toBeGreaterThan(0);
  });
});
