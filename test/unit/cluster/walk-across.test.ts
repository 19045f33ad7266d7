// Walks stitched across the nodes of generated clusters: a pod on node 0 to a pod on node 1 leaves node
// 0 the way its plugin carries pod traffic (VXLAN to node 1's provider address, a host route to node 1's
// address, or the cloud fabric), continues on node 1 (uplink, decapsulation, the destination port's IN
// layers, delivery) and its reply comes back to node 0. Every hop names its node, and its evidence line
// is read from that node's own bundle.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupClusters, loadGeneratedCluster } from '../../helpers/cluster.ts';
import { walkAcross, type StitchedWalk } from '../../../analysis/cluster/index.ts';
import type { ClusterModel } from '../../../analysis/cluster/index.ts';
import type { PlatformName } from '../../../tools/gen/index.ts';

afterAll(cleanupClusters);

const VIA: Partial<Record<PlatformName, 'vxlan' | 'route' | 'fabric'>> = {
  'flannel-vxlan': 'vxlan',
  'calico-vxlan': 'vxlan',
  'ovn-kubernetes': 'vxlan',
  'flannel-host-gw': 'route',
  'calico-bgp': 'route',
  antrea: 'route',
  'azure-cni': 'fabric',
  'azure-cni-overlay': 'fabric',
  'eks-vpc-bridge': 'fabric',
};

/** Each hop's evidence line is a line of the hop's own node's bundle, and names the hop's rule. */
function expectEvidenceFromOwnNode(c: ClusterModel, w: StitchedWalk): void {
  for (const h of w.hops) {
    if (!h.evidence || h.kind === 'handover') continue;
    const model = c.byId(h.node)!.model!;
    const text = model.text?.lineText(h.evidence.file, h.evidence.line);
    expect(text, `${h.node} ${h.evidence.file}:${h.evidence.line}`).toBeDefined();
    // A rule printed without an id names itself on its Friendly name line, a line or two down.
    if (h.kind === 'vfp' && h.rule && !h.flow) expect(model.text!.find(h.evidence.file, h.evidence.line, (t) => t.includes(h.rule!), 3), `${h.node} ${h.evidence.file}:${h.evidence.line} ${h.rule}`).toBeDefined();
  }
}

describe('walks across two nodes', () => {
  for (const [platform, via] of Object.entries(VIA) as [PlatformName, 'vxlan' | 'route' | 'fabric'][]) {
    it(`${platform}: pod on node 0 → pod on node 1 by ${via}, delivered there, answered back`, async () => {
      const c = await loadGeneratedCluster({ nodes: 3, platform, seed: 21 });
      const [n0, n1] = c.plan.nodes;
      const w = walkAcross(c.cluster, { srcIp: n0.podIps[0], dstIp: n1.podIps[1], dstPort: 80, proto: 'tcp' }, { reply: true });
      expect(w.verdict, w.reason).toBe('delivered');
      expect(w.legs.map((l) => l.node)).toEqual([n0.host, n1.host]);
      expect(w.handovers).toHaveLength(1);
      const h = w.handovers[0];
      expect([h.from, h.to, h.via, h.resolved]).toEqual([n0.host, n1.host, via, true]);
      if (via === 'vxlan') expect([h.address, h.packet.encap?.dstIp, h.packet.encap?.dstMac]).toEqual([n1.nodeIp, n1.nodeIp, n1.drMac]);
      // Antrea routes a peer's pod CIDR via the peer's gateway on antrea-gw0 (its pod subnet's .1), the others via its node address.
      if (via === 'route') expect(h.address).toBe(platform === 'antrea' ? n1.podSubnet.replace(/\.0\/\d+$/, '.1') : n1.nodeIp);
      if (via === 'fabric') expect(h.inferred).toBe(true);
      // Antrea's OVS pipeline and Geneve tunnel are in no bundle: the hand-over is inferred, and says why.
      expect(h.inferred).toBe(via === 'fabric' || platform === 'antrea');
      if (platform === 'antrea') {
        expect(h.note).toContain('OVS');
        expect(h.source).toContain('antrea-io/antrea');
        expect(w.inferred).toBe(true);
        expect(w.caveats.some((x) => x.kind === 'handover' && x.text.includes('OVS'))).toBe(true);
      }
      // Node 0's half ends at its uplink; node 1's half starts there.
      const first = w.hops.filter((x) => x.node === n0.host);
      const second = w.hops.filter((x) => x.node === n1.host && x.leg === 1);
      expect(first[0]).toMatchObject({ kind: 'source', leg: 0 });
      expect(first.some((x) => x.kind === 'uplink' || x.kind === 'host-route')).toBe(true);
      expect(second[0]).toMatchObject({ kind: 'source', action: 'arrive on the uplink' });
      expect(second.some((x) => x.kind === 'uplink' && x.action === 'VXLAN decap')).toBe(via === 'vxlan');
      // Antrea's pod ports are OVS ports, not VFP ports (windows-design.md): no VFP layers to walk there.
      expect(second.some((x) => x.kind === 'vfp' && x.direction === 'IN')).toBe(platform !== 'antrea');
      // The arrival and the switch to the pod cite node 1's own lines: the address the packet was sent to, the pod's endpoint.
      const lineOf = (x: (typeof second)[number]) => c.cluster.byId(n1.host)!.model!.text!.lineText(x.evidence!.file, x.evidence!.line) ?? '';
      expect(second[0].evidence, 'arrival evidence').toBeTruthy();
      expect(lineOf(second[0])).toContain(via === 'fabric' ? n1.podIps[1] : h.packet.encap?.dstIp ?? h.address);
      const sw = second.find((x) => x.kind === 'vswitch' && x.action === 'switch');
      if (sw) expect(lineOf(sw)).toContain(n1.podIps[1]);
      expect(second[second.length - 1]).toMatchObject({ kind: 'deliver' });
      expect(second[second.length - 1].at).toContain(n1.podIps[1]);
      expect(w.hops[w.deciding].node).toBe(n1.host);
      expectEvidenceFromOwnNode(c.cluster, w);
      // The reply: node 1 first, node 0 last, delivered as the answer the source expects.
      const r = w.reply!;
      expect(r.verdict, r.reason).toBe('delivered');
      expect(r.legs.map((l) => l.node)).toEqual([n1.host, n0.host]);
      // OVN-Kubernetes exempts only the service CIDR from OutBoundNAT (WMCO cni-conf-template.json): the
      // request left node 0 SNATed to its address, so the answer is routed to that address, not tunnelled.
      expect(r.handovers[0]).toMatchObject({ from: n1.host, to: n0.host, via: platform === 'ovn-kubernetes' ? 'route' : via });
      expect(r.reason).toContain('the answer');
      expectEvidenceFromOwnNode(c.cluster, r);
    });
  }

  it('a Service VIP on node 2 load-balanced to a backend on node 0 is delivered there', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'flannel-vxlan', seed: 22 });
    const [n0, , n2] = c.plan.nodes;
    const svc = c.plan.expected.services.find((s) => s.name.startsWith('default/') && s.name !== 'default/kubernetes' && s.backends.some((b) => n0.podIps.includes(b)))!;
    const backend = svc.backends.find((b) => n0.podIps.includes(b))!;
    const lb = c.cluster.byId(n2.host)!.model!.loadBalancers!.find((l) => l.vips.includes(svc.vip))!;
    const port = lb.ports[0];
    const w = walkAcross(c.cluster, { srcIp: n2.podIps[0], dstIp: svc.vip, dstPort: port.externalPort, proto: port.protocol === 17 ? 'udp' : 'tcp', dip: backend }, { reply: true });
    expect(w.verdict, w.reason).toBe('delivered');
    expect(w.legs.map((l) => l.node)).toEqual([n2.host, n0.host]);
    expect(w.hops.some((x) => x.node === n2.host && x.action === 'DNAT' && x.after?.dstIp === backend)).toBe(true);
    expect(w.final.dstIp).toBe(backend);
    expect(w.reply!.verdict, w.reply!.reason).toBe('delivered');
    // The source sees the VIP answer: the DNAT is undone on node 2 by the flow it created there.
    expect(w.reply!.final.srcIp).toBe(svc.vip);
  });

  it('stale-pa: the odd node tunnels node 0\'s pods to an address no node has — dropped at the hand-over, named', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'calico-vxlan', seed: 23, faults: ['stale-pa'] });
    const [n0, n1, odd] = c.plan.nodes;
    const stale = c.plan.expected.faults[0].objects[1];
    const w = walkAcross(c.cluster, { srcIp: odd.podIps[0], dstIp: n0.podIps[0], dstPort: 80, proto: 'tcp' });
    expect(w.verdict).toBe('dropped');
    expect(w.legs.map((l) => l.node)).toEqual([odd.host]);
    expect(w.hops[w.deciding]).toMatchObject({ kind: 'handover', node: odd.host });
    expect(w.reason).toContain(stale);
    expect(w.reason).toContain(`lives on ${n0.host}`);
    expect(w.caveats.some((x) => x.kind === 'handover' && x.node === odd.host)).toBe(true);
    // The other nodes still reach node 0.
    expect(walkAcross(c.cluster, { srcIp: n1.podIps[0], dstIp: n0.podIps[0], dstPort: 80, proto: 'tcp' }).verdict).toBe('delivered');
  });

  it('a stale DR MAC: the receiving node does not decapsulate a frame for another MAC', async () => {
    const c = await loadGeneratedCluster({ nodes: 2, platform: 'flannel-vxlan', seed: 24 });
    const [n0, n1] = c.plan.nodes;
    const net = c.cluster.byId(n1.host)!.model!.networks!.find((n) => n.type === 'overlay')!;
    net.drMac = '00-15-5D-00-00-01';
    const w = walkAcross(c.cluster, { srcIp: n0.podIps[0], dstIp: n1.podIps[0], dstPort: 443, proto: 'tcp' });
    expect(w.verdict).toBe('dropped');
    expect(w.hops[w.deciding]).toMatchObject({ node: n1.host, kind: 'drop', action: 'not decapsulated' });
    expect(w.reason).toContain(`DR MAC ${n1.drMac}`);
  });

  it('a source no open bundle has is unknown, named', async () => {
    const c = await loadGeneratedCluster({ nodes: 2, platform: 'flannel-host-gw', seed: 25 });
    const w = walkAcross(c.cluster, { srcIp: '10.99.0.7', dstIp: c.plan.nodes[0].podIps[0], dstPort: 80, proto: 'tcp' });
    expect(w.verdict).toBe('unknown');
    expect(w.reason).toContain('no open bundle has 10.99.0.7');
    expect(w.legs).toEqual([]);
  });

  it('pod → another node\'s NodePort whose backend is back on the first node: three legs, and the answer does not retrace them', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'azure-cni-overlay', seed: 26, services: 12 });
    const [n0, n1] = c.plan.nodes;
    const model1 = c.cluster.byId(n1.host)!.model!;
    const endpoints1 = new Map((model1.endpoints ?? []).map((e) => [e.id.toLowerCase(), e.ip]));
    const np = model1.loadBalancers!.find((l) => l.vips.includes(n1.nodeIp) && l.endpointIds.some((id) => n0.podIps.includes(endpoints1.get(id.toLowerCase()) ?? '')));
    expect(np, 'a generated NodePort with a backend on node 0').toBeDefined();
    const backend = np!.endpointIds.map((id) => endpoints1.get(id.toLowerCase())!).find((ip) => n0.podIps.includes(ip))!;
    const p = np!.ports[0];
    const w = walkAcross(c.cluster, { srcIp: n0.podIps[0], dstIp: n1.nodeIp, dstPort: p.externalPort, proto: p.protocol === 17 ? 'udp' : 'tcp', dip: backend }, { reply: true });
    expect(w.verdict, w.reason).toBe('delivered');
    expect(w.legs.map((l) => l.node)).toEqual([n0.host, n1.host, n0.host]);
    expect(w.handovers.map((h) => h.via)).toEqual(['route', 'fabric']);
    expect(w.hops.some((x) => x.node === n1.host && x.at === 'vSwitch (NodePort)' && x.after?.dstIp === backend)).toBe(true);
    expect(w.final.dstIp).toBe(backend);
    // The backend answers the SNATed source on node 0 directly: the NodePort translation on node 1 is never undone.
    const r = w.reply!;
    expect(r.verdict).toBe('dropped');
    expect(r.inferred).toBe(true);
    expect(r.reason).toContain(`without going back through ${n1.host}`);
    expect(r.caveats.some((x) => x.kind === 'reply-mismatch')).toBe(true);
  });
});
