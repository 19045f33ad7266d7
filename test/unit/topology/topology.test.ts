// The topology graph of generated nodes against the generator's ground truth.
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../../analysis/topology.ts';
import { edgeBetween, expectValidGraph, generated, nodesOf } from './helpers.ts';

describe.each([
  ['l2bridge v2', { network: 'l2bridge' as const }],
  ['l2bridge v1 list-rule (2019)', { network: 'l2bridge' as const, schema: 1 as const, vfpGeneration: 'list-rule' as const, windowsBuild: '10.0.17763.5830' }],
  ['overlay v2', { network: 'overlay' as const }],
  ['overlay v1 list-rule (2019)', { network: 'overlay' as const, schema: 1 as const, vfpGeneration: 'list-rule' as const, windowsBuild: '10.0.17763.5830' }],
])('%s', (_name, over) => {
  const { node, model } = generated(over);
  const g = buildTopology(model);

  it('is a valid graph', () => {
    expectValidGraph(g);
    expect(g.collapsed).toBe(false);
  });

  it('shows every local endpoint once, in its compartment group, with its VFP port', () => {
    const local = node.expected.endpoints.filter((e) => !e.isRemote);
    expect(local.length).toBeGreaterThan(0);
    for (const e of local) {
      const id = e.id.toLowerCase();
      const nodes = g.nodes.filter((n) => n.ref?.type === 'endpoint' && n.ref.id === id);
      expect(nodes.length, e.ip).toBe(1);
      const n = nodes[0];
      expect(n.kind).toBe('endpoint');
      expect(n.label).toBe(e.ip);
      expect(n.id).toBe(`endpoint:${id}`);
      expect(n.guid).toBe(e.id.toLowerCase());
      expect(n.rank).toBe(3);
      if (e.compartmentId !== undefined) {
        const parent = g.nodes.find((x) => x.id === n.parent)!;
        expect(parent.kind).toBe('compartment');
        expect(parent.label).toBe(`Compartment ${e.compartmentId}`);
        expect(parent.ref).toEqual({ type: 'compartment', id: String(e.compartmentId) });
      }
      expect(n.details).toContain(`MAC ${e.mac}`);
      if (e.portName) {
        expect(n.copy).toContainEqual({ label: 'VFP port', value: expect.stringMatching(new RegExp(`^${e.portName}$`, 'i')) });
        const rules = node.expected.vfpPorts.find((p) => p.name.toLowerCase() === e.portName!.toLowerCase())!.rules;
        expect(n.details.some((d) => d.startsWith(`port ${e.portName!.slice(0, 8)}`) && d.endsWith(`${rules} rules`)), n.details.join(' ; ')).toBe(true);
      }
      expect(n.flags).toEqual([]);
    }
  });

  it('gives each local endpoint’s VFP port a node of its own, attached to the endpoint', () => {
    const local = node.expected.endpoints.filter((e) => !e.isRemote && e.portName);
    expect(local.length).toBeGreaterThan(0);
    const ports = g.attached!.nodes.filter((n) => n.kind === 'vfp-port');
    expect(ports.length).toBe(local.length);
    for (const e of local) {
      const key = e.portName!.toLowerCase();
      const port = ports.find((p) => p.id === `port:${key}`)!;
      expect(port, e.ip).toBeDefined();
      expect(port.ref).toEqual({ type: 'port', id: key });
      expect(port.attachedTo).toBe(`endpoint:${e.id.toLowerCase()}`);
      const rules = node.expected.vfpPorts.find((p) => p.name.toLowerCase() === key)!.rules;
      expect(port.details.some((d) => d.endsWith(`${rules} rules`)), port.details.join(' ; ')).toBe(true);
      expect(g.attached!.edges.filter((x) => x.source === port.attachedTo && x.target === port.id).map((x) => x.kind)).toEqual(['port']);
      // Only attached: the main node list (what the report draws) is unchanged.
      expect(g.nodes.some((n) => n.id === port.id)).toBe(false);
    }
  });

  it('shows every remote endpoint as a remote-endpoint node', () => {
    for (const e of node.expected.endpoints.filter((x) => x.isRemote)) {
      const n = g.nodes.find((x) => x.id === `endpoint:${e.id.toLowerCase()}`)!;
      expect(n, e.ip).toBeDefined();
      expect(n.kind).toBe('remote-endpoint');
      expect(n.flags).toContain('remote');
      expect(n.label).toBe(e.ip);
    }
  });

  it('draws an lb-dip edge from every load balancer to each DIP it references', () => {
    expect(nodesOf(g, 'loadbalancer').length).toBe(node.expected.loadBalancers.length);
    for (const lb of node.expected.loadBalancers) {
      const lbId = `loadbalancer:${lb.id.toLowerCase()}`;
      const n = g.nodes.find((x) => x.id === lbId)!;
      expect(n, lb.id).toBeDefined();
      const p = lb.ports[0];
      expect(n.label.startsWith(`${lb.vips[0]}:${p.externalPort}/${p.protocol === 6 ? 'TCP' : 'UDP'}`)).toBe(true);
      for (const dip of lb.endpointIds) {
        const e = edgeBetween(g, lbId, `endpoint:${dip.toLowerCase()}`);
        expect(e.length, `${lb.id} → ${dip}`).toBe(1);
        expect(e[0].kind).toBe('lb-dip');
        expect(e[0].broken).toBeUndefined();
      }
      expect(g.edges.filter((e) => e.source === lbId).length).toBe(new Set(lb.endpointIds.map((x) => x.toLowerCase())).size);
    }
  });

  it('has one uplink, one vSwitch, the networks and the host vNIC in a chain', () => {
    const uplinks = nodesOf(g, 'uplink');
    expect(uplinks.length).toBe(1);
    expect(uplinks[0].details).toContain(`node IP ${node.nodeIp}`);
    expect(uplinks[0].details).toContain(`MAC ${node.hostMac}`);
    const switches = nodesOf(g, 'vswitch');
    expect(switches.length).toBe(1);
    expect(edgeBetween(g, uplinks[0].id, switches[0].id).map((e) => e.kind)).toEqual(['uplink']);
    for (const net of node.expected.networks) {
      const n = g.nodes.find((x) => x.id === `network:${net.id.toLowerCase()}`)!;
      expect(n.label).toBe(net.name);
      expect(n.details.some((d) => d.startsWith(`${net.subnet} gw ${net.gateway}`))).toBe(true);
    }
    const pod = node.networks.find((n) => n.type !== 'nat')!;
    expect(edgeBetween(g, switches[0].id, `network:${pod.id.toLowerCase()}`).length).toBe(1);
    const vnic = g.nodes.find((x) => x.id === `port:${pod.hostVnicPortGuid!.toLowerCase()}`)!;
    expect(vnic.kind).toBe('host-vnic');
    expect(vnic.details).toContain(`${node.nodeIp}/${node.nodeSubnet.split('/')[1]}`);
    expect(edgeBetween(g, `network:${pod.id.toLowerCase()}`, vnic.id).length).toBe(1);
  });

  it('shows the remote pod subnets and how they are reached', () => {
    const pod = node.networks.find((n) => n.type !== 'nat')!;
    expect(node.expected.remoteSubnets.length).toBe(2);
    for (const rs of node.expected.remoteSubnets) {
      const sub = g.nodes.find((x) => x.id === `remote-subnet:${rs.prefix}`)!;
      expect(sub, rs.prefix).toBeDefined();
      expect(sub.ref).toEqual({ type: 'remote-subnet', id: rs.prefix });
      expect(edgeBetween(g, `network:${pod.id.toLowerCase()}`, sub.id).map((e) => e.kind)).toEqual(['route']);
      const hop = g.nodes.find((x) => x.id === `next-hop:${rs.nodeIp}`)!;
      expect(hop.kind).toBe('next-hop');
      const e = edgeBetween(g, sub.id, hop.id);
      expect(e.length).toBe(1);
      if (over.network === 'overlay') {
        expect(e[0].kind).toBe('encap');
        expect(e[0].label).toBe('VXLAN VNI 4096');
      } else {
        expect(e[0].kind).toBe('route');
        expect(e[0].label).toBe(`via ${rs.nodeIp}`);
      }
    }
    expect(nodesOf(g, 'remote-subnet').length).toBe(node.expected.remoteSubnets.length);
    // Remote endpoints in a remote pod subnet are members of it.
    for (const e of node.expected.endpoints.filter((x) => x.isRemote)) {
      const rs = node.expected.remoteSubnets.find((s) => e.ip.startsWith(s.prefix.split('.').slice(0, 3).join('.') + '.'));
      if (rs) expect(edgeBetween(g, `endpoint:${e.id.toLowerCase()}`, `remote-subnet:${rs.prefix}`).map((x) => x.kind)).toEqual(['member']);
    }
  });

  it('gives the same ids on every call', () => {
    const again = buildTopology(model);
    expect(again.nodes.map((n) => n.id)).toEqual(g.nodes.map((n) => n.id));
    expect(again.edges.map((e) => e.id)).toEqual(g.edges.map((e) => e.id));
  });
});

describe('faults', () => {
  it('draws a load balancer DIP that exists nowhere as a broken edge to a dangling node', () => {
    const { node, model } = generated({ faults: ['stale-lb-dip'] });
    const g = buildTopology(model);
    expectValidGraph(g);
    const stale = node.expected.faults.find((f) => f.name === 'stale-lb-dip')!.objects.map((o) => o.toLowerCase());
    const missing = g.nodes.filter((n) => n.flags.includes('dangling') && n.kind === 'remote-endpoint');
    expect(missing.length).toBe(1);
    expect(stale).toContain(missing[0].guid);
    expect(missing[0].id).toBe(`missing:${missing[0].guid}`);
    expect(missing[0].ref).toBeUndefined();
    const broken = g.edges.filter((e) => e.broken);
    expect(broken.length).toBeGreaterThan(0);
    for (const e of broken) {
      expect(e.kind).toBe('lb-dip');
      expect(e.target).toBe(missing[0].id);
      expect(g.nodes.find((n) => n.id === e.source)!.flags).toContain('dangling');
    }
  });

  it('flags a blocked VFP port on its endpoint', () => {
    const { node, model } = generated({ faults: ['blocked-port'] });
    const g = buildTopology(model);
    const [, epId] = node.expected.faults.find((f) => f.name === 'blocked-port')!.objects;
    const n = g.nodes.find((x) => x.id === `endpoint:${epId.toLowerCase()}`)!;
    expect(n.flags).toContain('blocked');
    expect(g.nodes.filter((x) => x.flags.includes('blocked')).length).toBe(1);
    // The port itself says so when it is drawn.
    const port = g.attached!.nodes.find((x) => x.attachedTo === n.id)!;
    expect(port.flags).toEqual(['blocked']);
  });

  it('flags an endpoint with no vNIC and leaves it out of any compartment', () => {
    const { node, model } = generated({ faults: ['endpoint-without-vnic'] });
    const g = buildTopology(model);
    expectValidGraph(g);
    const [epId] = node.expected.faults.find((f) => f.name === 'endpoint-without-vnic')!.objects;
    const n = g.nodes.find((x) => x.id === `endpoint:${epId.toLowerCase()}`)!;
    expect(n.flags).toContain('no-adapter');
    expect(n.parent).toBeUndefined();
  });

  it('has no route and no remote subnet node for the remote node that lost its route (l2bridge)', () => {
    const { node, model } = generated({ faults: ['missing-remote-subnet-route'] });
    const g = buildTopology(model);
    const lost = node.remoteNodes[0];
    expect(g.nodes.some((n) => n.id === `remote-subnet:${lost.podSubnet}`)).toBe(false);
    expect(g.nodes.some((n) => n.id === `remote-subnet:${node.remoteNodes[1].podSubnet}`)).toBe(true);
  });

  it('draws the remote subnets HNS knows even when VFP lost the REMOTESUBNETROUTE rule (overlay: drift is a finding)', () => {
    const { node, model } = generated({ network: 'overlay', faults: ['missing-remote-subnet-route'] });
    const g = buildTopology(model);
    expectValidGraph(g);
    // The generator drops only the VFP rule; the network's RemoteSubnetRoute policy is still there.
    for (const r of node.remoteNodes) expect(edgeBetween(g, `remote-subnet:${r.podSubnet}`, `next-hop:${r.ip}`).map((e) => e.kind)).toEqual(['encap']);
  });

  it('keeps two endpoints with one IP apart', () => {
    const { node, model } = generated({ faults: ['duplicate-ip'] });
    const g = buildTopology(model);
    expectValidGraph(g);
    const [a, b] = node.expected.faults.find((f) => f.name === 'duplicate-ip')!.objects.map((x) => `endpoint:${x.toLowerCase()}`);
    const na = g.nodes.find((n) => n.id === a)!, nb = g.nodes.find((n) => n.id === b)!;
    expect(na.label).toBe(nb.label);
  });
});
