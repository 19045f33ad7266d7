// Table-driven packet walks over generated l2bridge and overlay nodes: the three classic flows and
// the failures the seeds describe. Expectations come from the generator's objects (node IPs, pod
// subnets, backends), not from the engine.
import { describe, expect, it } from 'vitest';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { WalkResult } from '../../../analysis/walk/types.ts';
import { build, localPods, remotePods } from './helpers.ts';

const PROTO = { 6: 'tcp', 17: 'udp' } as const;

function expectEveryRuleHopCited(t: WalkResult): void {
  for (const h of t.hops.filter((x) => x.kind === 'vfp')) {
    expect(h.evidence?.file, h.at).toBe('vfpOutput.txt');
    expect(h.evidence!.line).toBeGreaterThan(0);
    expect(h.layer && h.group && h.rule && h.ruleType, h.at).toBeTruthy();
  }
}

describe.each(['l2bridge', 'overlay'] as const)('%s node', (network) => {
  const { node, model } = build({ network, schema: network === 'overlay' ? 1 : 2, vfpGeneration: network === 'overlay' ? 'list-rule' : 'get-rule-counter' });
  const [a, b] = localPods(node);

  it('pod → pod on the same node is delivered unchanged, through both ports', () => {
    const t = walkFlow(model, { srcIp: a.ip, dstIp: b.ip, dstPort: 80, proto: 'tcp' });
    expect(t.verdict).toBe('delivered');
    expect(t.final).toMatchObject({ srcIp: a.ip, dstIp: b.ip, dstPort: 80 });
    const ports = new Set(t.hops.filter((h) => h.kind === 'vfp').map((h) => `${h.port?.toLowerCase()} ${h.direction}`));
    expect(ports.has(`${a.portName!.toLowerCase()} OUT`)).toBe(true);
    expect(ports.has(`${b.portName!.toLowerCase()} IN`)).toBe(true);
    expectEveryRuleHopCited(t);
  });

  it('pod → pod on another node leaves for that node (route or VXLAN to its address)', () => {
    const remote = remotePods(node)[0];
    const owner = node.remoteNodes.find((r) => remote.ip.startsWith(r.podSubnet.split('.').slice(0, 3).join('.') + '.'))!;
    const t = walkFlow(model, { srcIp: a.ip, dstIp: remote.ip, dstPort: 8080, proto: 'tcp' });
    expect(t.verdict).toBe('forwarded');
    expect(t.final).toMatchObject({ srcIp: a.ip, dstIp: remote.ip });
    if (network === 'overlay') {
      expect(t.egress.encapDst).toBe(owner.ip);
      const encap = t.hops[t.deciding];
      expect(encap.ruleType).toBe('routeencap');
      expect(encap.rule).toMatch(/^REMOTESUBNETROUTE/);
      expect(encap.rewrite?.encap).toMatchObject({ dstIp: owner.ip, vni: 4096 });
    } else {
      expect(t.egress.nextHop).toBe(owner.ip);
      expect(t.hops[t.deciding].kind).toBe('host-route');
      expect(t.hops.some((h) => h.ruleType === 'transposition' && h.rewrite?.srcMac)).toBe(true);
    }
    expectEveryRuleHopCited(t);
  });

  it('pod → ClusterIP reaches each backend of the service and names the others', () => {
    const svc = node.expected.loadBalancers.find((l) => l.endpointIds.length >= 2 && !l.vips.includes(node.nodeIp))!;
    const p = svc.ports[0];
    const backends = svc.endpointIds.map((id) => node.expected.endpoints.find((e) => e.id.toLowerCase() === id.toLowerCase())!.ip);
    for (const dip of backends) {
      const t = walkFlow(model, { srcIp: a.ip, dstIp: svc.vips[0], dstPort: p.externalPort, proto: PROTO[p.protocol as 6 | 17], dip });
      expect(['delivered', 'forwarded']).toContain(t.verdict);
      expect(t.final.dstIp).toBe(dip);
      expect(t.final.dstPort).toBe(p.internalPort);
      const dnat = t.hops.find((h) => h.action === 'DNAT')!;
      expect(dnat.ruleType).toBe('lbnat');
      expect(dnat.alternatives?.length).toBe(backends.length - 1);
      expect(t.path).toContain(`loadbalancer:${svc.id.toLowerCase()}`);
      // the hop lights the backend it chose, and the pod's own port hops light the pod
      const chosen = node.expected.endpoints.find((e) => e.ip === dip)!;
      expect(dnat.nodes).toContain(`endpoint:${chosen.id.toLowerCase()}`);
      expect(dnat.nodes).toContain(`endpoint:${a.id.toLowerCase()}`);
    }
    // without --dip the choice is marked as the engine's, with the alternatives listed
    const t = walkFlow(model, { srcIp: a.ip, dstIp: svc.vips[0], dstPort: p.externalPort, proto: PROTO[p.protocol as 6 | 17] });
    const dnat = t.hops.find((h) => h.action === 'DNAT')!;
    expect(dnat.inferred).toBe(true);
    expect(backends).toContain(t.final.dstIp);
  });

  it('the reply of pod → service comes back from the VIP (the lbnat rule creates a flow pair)', () => {
    const svc = node.expected.loadBalancers.find((l) => l.endpointIds.length >= 1 && !l.vips.includes(node.nodeIp))!;
    const p = svc.ports[0];
    const t = walkFlow(model, { srcIp: a.ip, dstIp: svc.vips[0], dstPort: p.externalPort, proto: PROTO[p.protocol as 6 | 17] });
    const rp = t.returnPath!;
    expect(rp.sent).toMatchObject({ srcIp: t.final.dstIp, dstIp: a.ip, srcPort: p.internalPort });
    expect(rp.received).toMatchObject({ srcIp: svc.vips[0], srcPort: p.externalPort, dstIp: a.ip });
    expect(rp.steps[0]).toMatchObject({ stateful: true });
    expect(rp.steps[0].rule).toMatch(/^LB_DSR_/);
  });

  it('the reply from outside is translated back to the pod (OutboundNAT is stateful)', () => {
    const t = walkFlow(model, { srcIp: a.ip, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' });
    expect(t.returnPath!.sent.dstIp).toBe(node.nodeIp);
    expect(t.returnPath!.received).toMatchObject({ srcIp: '93.184.216.34', dstIp: a.ip });
    expect(t.returnPath!.notes).toEqual([]);
  });

  it('pod → outside is SNATed to the node IP and leaves by the default route', () => {
    const t = walkFlow(model, { srcIp: a.ip, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' });
    expect(t.verdict).toBe('forwarded');
    expect(t.final.srcIp).toBe(node.nodeIp);
    expect(t.egress.nextHop).toBe(node.nodeGateway);
    const snat = t.hops.find((h) => h.action === 'SNAT')!;
    expect(snat.rule).toMatch(/^SNAT_TCP_OUTBOUNDNAT_\d+_/);
    expect(snat.ruleType).toBe('dynnat');
    expect(snat.rewrite?.srcIp).toBe(node.nodeIp);
    // The pool's NAT range is not in the bundle: the address comes from the rule's name, and says so.
    expect(snat.inferred).toBe(true);
    expect(snat.note).toMatch(/rule's name/);
    expect(t.dependsOnUnmodelled).toBe(false);
  });

  it('OutboundNAT has a dynnat rule per protocol: UDP is SNATed too, ICMP is not and gets no answer', () => {
    const udp = walkFlow(model, { srcIp: a.ip, dstIp: '93.184.216.34', dstPort: 123, proto: 'udp' });
    expect(udp.final.srcIp).toBe(node.nodeIp);
    expect(udp.hops.find((h) => h.action === 'SNAT')!.rule).toMatch(/^SNAT_UDP_OUTBOUNDNAT/);
    const ping = walkFlow(model, { srcIp: a.ip, dstIp: '93.184.216.34', proto: 'icmp' }, { reply: true });
    expect(ping.verdict).toBe('forwarded');
    expect(ping.final.srcIp).toBe(a.ip);
    expect(ping.caveats?.map((c) => c.kind)).toContain('icmp');
    expect(ping.reply?.verdict).toBe('dropped');
  });

  it('the reply of pod → service, walked: it enters the pod port and the LB flow gives it the VIP back', () => {
    const svc = node.expected.loadBalancers.find((l) => l.endpointIds.length >= 1 && !l.vips.includes(node.nodeIp))!;
    const p = svc.ports[0];
    const t = walkFlow(model, { srcIp: a.ip, dstIp: svc.vips[0], dstPort: p.externalPort, proto: PROTO[p.protocol as 6 | 17] }, { reply: true });
    const r = t.reply!;
    expect(r.kind).toBe('reply');
    expect(r.verdict).toBe('delivered');
    expect(r.final).toMatchObject({ srcIp: svc.vips[0], srcPort: p.externalPort, dstIp: a.ip });
    const undo = r.hops.find((h) => h.flow && h.rule?.startsWith('LB_DSR_'))!;
    expect(undo.port?.toLowerCase()).toBe(a.portName!.toLowerCase());
    expect(undo.direction).toBe('IN');
    expect(r.caveats?.map((c) => c.kind) ?? []).not.toContain('reply-mismatch');
  });

  it('an OutboundNAT exception (the node subnet) is not SNATed', () => {
    const neighbour = node.nodeGateway.replace(/\.\d+$/, '.200');
    const t = walkFlow(model, { srcIp: a.ip, dstIp: neighbour, dstPort: 22, proto: 'tcp' });
    expect(t.final.srcIp).toBe(a.ip);
    const exc = t.hops.find((h) => h.rule?.startsWith('EXCEPTIONS_OUTBOUNDNAT'));
    expect(exc?.action).toBe('allow');
    expect(t.hops.some((h) => h.action === 'SNAT')).toBe(false);
  });

  it('pod → NodePort is translated to a backend of the service', () => {
    const np = node.expected.loadBalancers.find((l) => l.vips.includes(node.nodeIp));
    if (!np) return expect.fail('the generated node has no NodePort service');
    const p = np.ports[0];
    const t = walkFlow(model, { srcIp: a.ip, dstIp: node.nodeIp, dstPort: p.externalPort, proto: PROTO[p.protocol as 6 | 17] });
    const backends = np.endpointIds.map((id) => node.expected.endpoints.find((e) => e.id.toLowerCase() === id.toLowerCase())!.ip);
    expect(backends).toContain(t.final.dstIp);
    expect(t.final.dstPort).toBe(p.internalPort);
  });
});

describe('overlay host traffic', () => {
  it('host → a pod on another node is map-encapsulated on the host vNIC (m encaps; the provider address from HNS, inferred)', () => {
    const { node, model } = build({ network: 'overlay', schema: 1, vfpGeneration: 'list-rule' });
    const remote = remotePods(node)[0];
    const owner = node.remoteNodes.find((r) => remote.ip.startsWith(r.podSubnet.split('.').slice(0, 3).join('.') + '.'))!;
    const t = walkFlow(model, { srcIp: node.nodeIp, dstIp: remote.ip, dstPort: 80, proto: 'tcp' }, { reply: true });
    expect(t.verdict).toBe('forwarded');
    expect(t.egress.encapDst).toBe(owner.ip);
    const enc = t.hops.find((h) => h.ruleType === 'm encaps')!;
    expect(enc.rule).toMatch(/^ENCAP_/);
    expect(enc.inferred).toBe(true);
    expect(enc.note).toMatch(/RemoteSubnetRoute/);
    expect(t.reply?.verdict).toBe('delivered');
  });
});

describe('failures', () => {
  it('a block rule drops the packet and is named as the deciding rule', () => {
    let injected = false;
    const { node, model } = build({}, (path, text) => {
      if (path !== 'vfpOutput.txt') return text;
      // Put a higher-priority block for 10.96.0.0/12 into the first pod port's ACL OUT group.
      return text.replace(/( {2}GROUP : ACL_ENDPOINT_GROUP_IPV4_OUT\n(?: {6,}.*\n|\n)*?)( {4}RULE :)/, (_m, grp, rule) => {
        if (injected) return _m;
        injected = true;
        return `${grp}    RULE : BLOCK_SERVICES_TEST\n        Priority : 100\n        Flags : 1 terminating \n        Type : block\n        Conditions:\n            Destination IP : 10.96.0.0-10.111.255.255\n        Flow TTL: 0\n        FlagsEx : 0 \n${rule}`;
      });
    });
    expect(injected).toBe(true);
    const pod = node.expected.endpoints.filter((e) => !e.isRemote && e.portName).find((p) => model.vfp!.getPolicy(p.portName!)!.layers.some((l) => l.groups.some((g) => g.rules.some((r) => r.name === 'BLOCK_SERVICES_TEST'))))!;
    const t = walkFlow(model, { srcIp: pod.ip, dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' });
    expect(t.verdict).toBe('dropped');
    expect(t.hops[t.deciding]).toMatchObject({ rule: 'BLOCK_SERVICES_TEST', action: 'block', ruleType: 'block' });
    expect(t.reason).toMatch(/BLOCK_SERVICES_TEST/);
  });

  it('a service whose LB rule is missing on the source port is dropped, naming the HNS load balancer', () => {
    const { node } = build();
    const svc = node.expected.loadBalancers.find((l) => l.vips[0]?.startsWith('10.9') && l.vips[0] !== '10.96.0.10' && l.vips[0] !== '10.96.0.1')!;
    const vip = svc.vips[0];
    const port = svc.ports[0];
    const pod = localPods(node)[1];
    // Remove that service's lbnat rules from every port's dump (as if kube-proxy never programmed them).
    const { model } = build({}, (path, text) => (path !== 'vfpOutput.txt' ? text : text.replace(new RegExp(`    RULE : LB_DSR_\\w+_[\\d.]+_${vip.replace(/\./g, '\\.')}_${port.externalPort}_\\d+_${port.protocol}\\n(?: {8,}.*\\n|\\n)*`, 'g'), '')));
    const t = walkFlow(model, { srcIp: pod.ip, dstIp: vip, dstPort: port.externalPort, proto: PROTO[port.protocol as 6 | 17] });
    expect(t.verdict).toBe('dropped');
    expect(t.reason).toMatch(new RegExp(`no VFP rule load-balances ${vip.replace(/\./g, '\\.')}:${port.externalPort}`));
    expect(t.hops[t.deciding].note).toMatch(/HNS has load balancer/);
    expect(t.path).toContain(`loadbalancer:${svc.id.toLowerCase()}`);
  });

  it('overlay: a missing REMOTESUBNETROUTE leaves the pod packet unencapsulated, and says so', () => {
    const { node, model } = build({ network: 'overlay', faults: ['missing-remote-subnet-route'] });
    const fault = node.expected.faults.find((f) => f.name === 'missing-remote-subnet-route')!;
    const subnet = node.expected.remoteSubnets.find((s) => fault.detail.includes(s.prefix))!;
    const dst = subnet.prefix.replace(/0\/24$/, '9');
    const t = walkFlow(model, { srcIp: localPods(node)[0].ip, dstIp: dst, dstPort: 80, proto: 'tcp' });
    expect(t.egress.encapDst).toBeUndefined();
    expect(t.verdict).toBe('dropped');
    expect(t.reason).toMatch(/REMOTESUBNETROUTE/);
    expect(t.reason).toContain(subnet.prefix);
  });

  it('a load-balancing rule without flow state leaves the reply untranslated, and says so', () => {
    const { node, model } = build({}, (path, text) => (path === 'vfpOutput.txt' ? text.replace(/^ +Creating a flow pair\n/gm, '') : text));
    const svc = node.expected.loadBalancers.find((l) => l.vips[0] === '10.96.0.10')!;
    const t = walkFlow(model, { srcIp: localPods(node)[0].ip, dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' });
    expect(svc).toBeDefined();
    const rp = t.returnPath!;
    expect(rp.steps[0].stateful).toBe(false);
    expect(rp.received.srcIp).toBe(t.final.dstIp);
    expect(rp.notes.join(' ')).toMatch(/keeps no flow state/);
  });

  it('a blocked port drops at the source', () => {
    const { node, model } = build({ faults: ['blocked-port'] });
    const blocked = node.expected.vfpPorts.find((p) => p.blocked)!;
    const pod = node.expected.endpoints.find((e) => e.portName?.toLowerCase() === blocked.name.toLowerCase())!;
    const t = walkFlow(model, { srcIp: pod.ip, dstIp: localPods(node).find((p) => p.ip !== pod.ip)!.ip, dstPort: 80, proto: 'tcp' });
    expect(t.verdict).toBe('dropped');
    expect(t.reason).toMatch(/blocked/);
  });

  it('unknown, with the reason, when the bundle lacks the VFP rules', () => {
    const { node, model } = build({}, undefined);
    const { model: noVfp } = build({}, (path, text) => (path === 'vfpOutput.txt' ? '' : text));
    const pod = localPods(node)[0];
    expect(walkFlow(model, { srcIp: pod.ip, dstIp: '1.1.1.1', proto: 'icmp' }).verdict).toBe('forwarded');
    const t = walkFlow(noVfp, { srcIp: pod.ip, dstIp: '1.1.1.1', proto: 'icmp' });
    expect(t.verdict).toBe('unknown');
    expect(t.reason).toMatch(/rules of VFP port|vfpOutput/);
  });

  it('refuses a flow whose ends are of different IP families, with a reason', () => {
    const { model } = build();
    const t = walkFlow(model, { srcIp: 'fd00::1', dstIp: '10.0.0.1', proto: 'tcp' });
    expect(t).toMatchObject({ verdict: 'unknown' });
    expect(t.reason).toMatch(/different IP families/);
  });
});
