// What a real node does in the cases an audit of the walk found it got wrong: each case names the
// behaviour, the bundle it is walked on, and the source that says what Windows does.
import { describe, expect, it } from 'vitest';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { parseVfpRuleText } from '../../../parsers/vfp/index.ts';
import { applyRule } from '../../../analysis/walk/actions.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { formatWalk } from '../../../analysis/walk/format.ts';
import type { Packet } from '../../../analysis/walk/types.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import { inCidr } from '../../../analysis/walk/ip.ts';
import type { GeneratedNode } from '../../../tools/gen/index.ts';
import { buildPlatform } from '../platforms/helpers.ts';
import { load } from './helpers.ts';

export { load };

const ctx = (p: Packet) => ({ flow: { srcIp: p.srcIp, dstIp: p.dstIp, dstPort: p.dstPort, proto: p.proto } });

describe('a rule type vfpctrl does not document', () => {
  it('is applied from its data, and the hop says it is an inference', () => {
    const text = [
      'LAYER : LB',
      '  GROUP : LB_OUT',
      '    Direction : OUT',
      '    RULE : LB_UNDOCUMENTED',
      '        Friendly name : LB_UNDOCUMENTED',
      '        Priority : 100',
      '        Flags : 1 terminating',
      '        Type : futurelb',
      '        Conditions:',
      '            Destination IP : 10.96.0.10',
      '        Rule Data:',
      '            Modifying destination IP',
      '            Count of DIP Ranges: 1',
      '            DIP Range(s) :',
      '                { 10.244.1.5 : 53 }',
    ].join('\n');
    const rule = parseVfpRuleText(text, 'r.txt').value[0].layers[0].groups[0].rules[0];
    expect(rule.type).toBe('futurelb');
    const p: Packet = { srcIp: '10.244.1.9', dstIp: '10.96.0.10', srcPort: 49152, dstPort: 53, proto: 'udp' };
    const r = applyRule(rule, p, ctx(p));
    expect(r.packet.dstIp).toBe('10.244.1.5');
    expect(r.inferred).toBe(true);
  });
});

describe('HNS load balancers reached from outside the node', () => {
  it('a NodePort load balancer that is not DSR and names a SourceVIP replaces the client address by it (overlay demo)', () => {
    const m = load('assets/demo/overlay-node');
    const r = walkFlow(m, { srcIp: '203.0.113.5', dstIp: '10.240.0.36', dstPort: 30681, proto: 'tcp' }, { reply: true });
    const lbHop = r.hops.find((h) => h.at === 'vSwitch (NodePort)')!;
    expect(lbHop.action).toBe('DNAT + SNAT');
    expect(lbHop.inferred).toBe(true);
    expect(r.final.srcIp).toBe('10.244.18.254');
    // The answer goes back to the SourceVIP, and the load balancer's state returns it to the client.
    expect(r.returnPath?.received).toMatchObject({ srcIp: '10.240.0.36', srcPort: 30681, dstIp: '203.0.113.5' });
  });

  it('an outside packet to a LoadBalancer ingress IP is load-balanced, not called a ClusterIP (AKS)', () => {
    const m = load('test/fixtures/foreign/aks-win-zip-2025');
    const r = walkFlow(m, { srcIp: '203.0.113.9', dstIp: '20.246.11.8', dstPort: 80, proto: 'tcp' });
    expect(r.verdict).toBe('delivered');
    expect(['10.224.0.41', '10.224.0.47', '10.224.0.77']).toContain(r.final.dstIp);
    expect(JSON.stringify(r)).not.toMatch(/ClusterIP is not routable|source port translated/);
  });
});

describe('hairpin: a pod reaching a service whose backend is itself', () => {
  it('without a hairpin SNAT rule the walk does not claim delivery: unknown, with the reason and its source (l2bridge demo)', () => {
    const m = load('assets/demo/l2bridge-node');
    const r = walkFlow(m, { srcIp: '10.244.32.7', dstIp: '10.107.189.112', dstPort: 80, proto: 'tcp' });
    expect(r.verdict).toBe('unknown');
    expect(r.reason).toMatch(/hairpin/);
    const c = r.caveats!.find((x) => /hairpin/.test(x.text))!;
    expect(c.source).toMatch(/79359/);
    expect(r.hops[r.deciding].action).toBe('hairpin');
  });

  it('with a hairpin SNAT rule on the pod\'s port (the SNAT layer of kubernetes#79359) the packet comes back from the source VIP and is delivered', () => {
    // The pod's port gets an SNAT layer before LB_DSR, as in kubernetes#79359's dump: a stateful
    // dynnat rule for the service, named with the source VIP 10.240.0.19.
    const snatLayer = [
      'LAYER : SNAT',
      '    Friendly name : SNAT',
      '    Flags : 0x9 Default Allow , Update flows on address change',
      '    Priority : 40',
      '',
      '  GROUP : SNAT_IPv4_OUT',
      '      Friendly name : SNAT_IPv4_OUT',
      '      Priority : 100',
      '      Direction : OUT',
      '      Type : IPv4',
      '        Conditions:',
      '            <none>',
      '      Match type : Priority-based match',
      '',
      '    RULE : SNAT_TCP_627F8_10.240.0.19_10.107.189.112_80_8080_6',
      '        Friendly name : SNAT_TCP_627F8_10.240.0.19_10.107.189.112_80_8080_6',
      '        Priority : 100',
      '        Flags : 3 terminating stateful',
      '        Type : dynnat',
      '        Conditions:',
      '            Protocols : 6',
      '            Source IP : 10.244.32.7',
      '            Destination IP : 10.107.189.112',
      '            Destination ports : 80',
      '        Flow TTL: 240',
      '        Type : Source NAT;         NAT pool : SLB_NATPOOL_IPV4_TCP_10.240.0.1910.107.189.11280',
      '        FlagsEx : 0',
      '',
      '',
    ].join('\n');
    const m = load('assets/demo/l2bridge-node', (file, text) => {
      if (file !== 'vfpOutput.txt') return text;
      const at = text.indexOf('RULE : EEB7D9D2-F41B-44C9-AA2F-54365DFA1523');
      const i = text.indexOf('LAYER : LB_DSR', at);
      return text.slice(0, i) + snatLayer + text.slice(i);
    });
    const r = walkFlow(m, { srcIp: '10.244.32.7', dstIp: '10.107.189.112', dstPort: 80, proto: 'tcp' });
    expect(r.hops.some((h) => h.action === 'hairpin')).toBe(false);
    expect(r.hops.find((h) => h.ruleType === 'dynnat')?.action).toBe('SNAT');
    expect(r.verdict).toBe('delivered');
    expect(r.final).toMatchObject({ srcIp: '10.240.0.19', dstIp: '10.244.32.7', dstPort: 8080 });
  });

  it('a pod reaching a service with another backend is still delivered', () => {
    const m = load('assets/demo/l2bridge-node');
    const r = walkFlow(m, { srcIp: '10.244.32.7', dstIp: '10.96.0.10', dstPort: 53, proto: 'tcp' });
    expect(r.hops.some((h) => h.action === 'hairpin')).toBe(false);
  });
});

describe('host-originated packets follow the host route table', () => {
  it('host → local pod leaves through the vNIC the route names, with that interface\'s address (flannel l2bridge, cbr0_ep)', () => {
    const m = load('test/fixtures/foreign/ws2019-flannel-l2bridge-2020');
    const r = walkFlow(m, { srcIp: '192.168.30.21', dstIp: '10.244.3.6', dstPort: 80, proto: 'tcp' }, { reply: true });
    const route = r.hops.find((h) => h.kind === 'host-route')!;
    expect(route.evidence?.file).toBe('routes.txt');
    expect(r.hops[0].after?.srcMac).toBe('00-15-5D-A4-6E-02');
    expect(r.final.srcIp).toBe('10.244.3.2');
    expect(r.reply?.verdict).toBe('delivered');
    expect(r.reply?.caveats?.map((c) => c.kind)).not.toContain('reply-mismatch');
  });

  it('host → outside keeps the node address when the route leaves through the node\'s own interface', () => {
    const m = load('test/fixtures/foreign/ws2019-flannel-l2bridge-2020');
    const r = walkFlow(m, { srcIp: '192.168.30.21', dstIp: '8.8.8.8', dstPort: 443, proto: 'tcp' });
    expect(r.final.srcIp).toBe('192.168.30.21');
  });
});

describe('what the forward walk says about the answer', () => {
  it('an untransposed ping to the internet has no "same path back" summary: no answer comes back (overlay)', () => {
    const m = load('test/fixtures/foreign/ws2022-overlay-2024');
    const r = walkFlow(m, { srcIp: '10.244.2.4', dstIp: '8.8.8.8', proto: 'icmp' });
    expect(r.caveats?.some((c) => c.kind === 'icmp')).toBe(true);
    expect(r.returnPath).toBeUndefined();
    const text = formatWalk(r);
    expect(text).not.toMatch(/travels the same path back unchanged/);
    expect(text).toMatch(/reply: +none comes back/);
  });

  it('a pod packet leaving by the default route without SNAT carries the no-return caveat without --reply (l2bridge demo)', () => {
    const m = load('assets/demo/l2bridge-node');
    const r = walkFlow(m, { srcIp: '10.244.32.7', dstIp: '8.8.8.8', dstPort: 443, proto: 'tcp' });
    expect(r.verdict).toBe('forwarded');
    expect(r.final.srcIp).toBe('10.244.32.7');
    expect(r.caveats?.map((c) => c.kind)).toContain('no-return');
  });

  it('a pod packet SNATed on its way out carries no such caveat (overlay)', () => {
    const m = load('test/fixtures/foreign/ws2022-overlay-2024');
    const r = walkFlow(m, { srcIp: '10.244.2.4', dstIp: '8.8.8.8', dstPort: 443, proto: 'tcp' });
    expect(r.final.srcIp).not.toBe('10.244.2.4');
    expect(r.caveats?.map((c) => c.kind)).not.toContain('no-return');
  });
});

describe('a pod address only the default route covers', () => {
  const podToRemotePod = (model: NodeModel, node: GeneratedNode) => {
    const c = walkContext(model);
    const src = [...c.local.values()].find((e) => e.ip && c.portOf.get(e.id) && (c.adapterOf.get(e.id)?.compartment.id ?? 0) > 1)!;
    const subnets = node.remoteNodes.map((r) => r.podSubnet);
    const dst = [...c.remote.values()].find((e) => e.ip && subnets.some((s) => inCidr(e.ip!, s)))!;
    const r = walkFlow(model, { srcIp: src.ip!, dstIp: dst.ip!, dstPort: 80, proto: 'tcp' });
    return r.hops.find((h) => h.kind === 'host-route')!.note ?? '';
  };

  it('is no missing route on Azure CNI Overlay: the cloud network carries pod addresses', () => {
    const { model, node } = buildPlatform('azure-cni-overlay', { seed: 5 });
    const note = podToRemotePod(model, node);
    expect(note).toMatch(/route 0\.0\.0\.0\/0/);
    expect(note).not.toMatch(/missing/);
    expect(note).toMatch(/cloud network carries pod addresses/);
  });

  it('is a missing route with flannel host-gw, which routes each node\'s pod subnet on the host', () => {
    const { model, node } = buildPlatform('flannel-host-gw', { seed: 5 }, {}, (p, t) => (p.endsWith('routes.txt') ? t.split('\n').filter((l) => !/^\s*10\.244\.3[89]\.0\s/.test(l)).join('\n') : t));
    const note = podToRemotePod(model, node);
    expect(note).toMatch(/route 0\.0\.0\.0\/0/);
    expect(note).toMatch(/a route per node's pod subnet is expected .*missing/);
  });
});

describe('the backend a load balancer chose, by its Kubernetes name', () => {
  it('the DNAT hop names the backend pod when the kubectl snapshot has it (Azure CNI Overlay)', () => {
    const { model } = buildPlatform('azure-cni-overlay', { seed: 5 });
    const c = walkContext(model);
    const src = [...c.local.values()].find((e) => e.ip && c.portOf.get(e.id) && (c.adapterOf.get(e.id)?.compartment.id ?? 0) > 1)!;
    const named = (model.loadBalancers ?? [])
      .filter((lb) => lb.vips.length && lb.ports.some((p) => p.protocol === 6))
      .map((lb) => walkFlow(model, { srcIp: src.ip!, dstIp: lb.vips[0], dstPort: lb.ports.find((p) => p.protocol === 6)!.externalPort, proto: 'tcp' }))
      .flatMap((r) => r.hops.filter((h) => h.action === 'DNAT' && h.kind === 'vfp'))
      // the kubernetes Service's backend is the API server, no pod
      .filter((h) => (model.k8s?.pods ?? []).some((p) => p.ips.includes(h.after!.dstIp)));
    expect(named.length).toBeGreaterThan(0);
    for (const h of named) expect(h.note).toMatch(new RegExp(`backend ${h.after!.dstIp.replace(/\./g, '\\.')} is pod [\\w.-]+/[\\w.-]+`));
  });
});

describe('a ClusterIP reached from outside the node', () => {
  it('is not load-balanced, in words about an outside packet (no "source port")', () => {
    const { model } = buildPlatform('azure-cni-overlay', { seed: 5 });
    const svc = (model.k8s?.services ?? []).find((s) => s.clusterIps.length && s.ports.some((p) => p.protocol === 'TCP') && (model.loadBalancers ?? []).some((lb) => lb.vips.includes(s.clusterIps[0])))!;
    expect(svc).toBeDefined();
    const port = svc.ports.find((p) => p.protocol === 'TCP')!.port;
    const r = walkFlow(model, { srcIp: '203.0.113.9', dstIp: svc.clusterIps[0], dstPort: port, proto: 'tcp' });
    expect(r.verdict).toBe('dropped');
    expect(r.reason).toMatch(/ClusterIP, reachable only from inside the cluster/);
    expect(r.reason).not.toMatch(/source port/);
  });
});

describe('a NodePort load balancer without a SourceVIP, to a backend on another node', () => {
  it('keeps the client address and says the answer will not come back through this node (overlay demo, SourceVIP removed)', () => {
    const m = load('assets/demo/overlay-node', (f, t) => (f === 'policy.txt' ? t.replace(/"SourceVIP":\s*"10\.244\.18\.254",/g, '') : t));
    const r = walkFlow(m, { srcIp: '203.0.113.5', dstIp: '10.240.0.36', dstPort: 30681, proto: 'tcp' });
    expect(r.final.srcIp).toBe('203.0.113.5');
    expect(r.caveats?.find((c) => c.kind === 'no-return')?.text).toMatch(/asymmetric return/);
  });
});

describe('an internal (ILB) HNS load balancer reached from outside', () => {
  it('is not load-balanced when its port mapping is flagged ILB (AKS, flag set on the ingress load balancer)', () => {
    // PortMappings Flags 1 = ILB (microsoft/hcsshim hcn LoadBalancerPortMappingFlagsILB).
    const m = load('test/fixtures/foreign/aks-win-zip-2025', (f, t) => {
      if (f !== 'policy.txt') return t;
      const at = t.indexOf('"20.246.11.8"');
      const i = t.indexOf('"Flags":', at);
      return t.slice(0, i) + t.slice(i).replace(/"Flags":\s*0/, '"Flags": 1');
    });
    const r = walkFlow(m, { srcIp: '203.0.113.9', dstIp: '20.246.11.8', dstPort: 80, proto: 'tcp' });
    expect(r.verdict).toBe('dropped');
    expect(r.reason).toMatch(/internal load balancer, reachable only from inside the cluster/);
  });
});
