// The seeds' real vfpctrl rules (the Windows troubleshooting guide) walked by the engine: what each
// rule does to a packet must be what the guide says it does.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseVfpRuleText, type VfpPortPolicy } from '../../../parsers/vfp/index.ts';
import { walkPort } from '../../../analysis/walk/walk-port.ts';
import type { Packet } from '../../../analysis/walk/types.ts';

const fixture = (n: string) => readFileSync(path.resolve('test/fixtures/vfp', n), 'utf8');

/** A seed excerpt holds bare RULE blocks (or a filtered /layer list): the parser files them under a synthetic layer/group; give it the direction the guide shows. */
function policyOf(file: string, direction: 'IN' | 'OUT', matchType: 'priority' | 'lpm' = 'priority'): VfpPortPolicy {
  const r = parseVfpRuleText(fixture(file), file);
  const p = r.value[0];
  for (const l of p.layers) {
    for (const g of l.groups) {
      if (g.synthetic) {
        g.direction = direction;
        g.matchType = matchType;
      }
    }
    if (l.synthetic) l.flagNames = ['Default Allow'];
  }
  return p;
}

const ctx = { flow: { srcIp: '10.244.19.29', dstIp: '', proto: 'tcp' as const } };

describe('seed rules', () => {
  it('LB lbnat: the ClusterIP 10.102.220.146:80 is DNATed to one of its two DIPs, the other listed', () => {
    const p = policyOf('seed-lbnat.txt', 'OUT');
    const pkt: Packet = { srcIp: '10.244.4.7', dstIp: '10.102.220.146', srcPort: 50000, dstPort: 80, proto: 'tcp' };
    const r = walkPort(p, 'pod port', 'OUT', pkt, { ...ctx, flow: { ...ctx.flow, dstIp: pkt.dstIp } });
    const dnat = r.hops.find((h) => h.action === 'DNAT')!;
    expect(dnat.rule).toBe('LB_72C28_10.127.130.38_10.102.220.146_80_80_6');
    expect(['10.244.19.31', '10.244.19.32']).toContain(r.packet.dstIp);
    expect(r.packet.dstPort).toBe(80);
    expect(dnat.alternatives).toEqual([r.packet.dstIp === '10.244.19.31' ? '10.244.19.32:80' : '10.244.19.31:80']);
    expect(dnat.evidence).toEqual({ file: 'seed-lbnat.txt', line: 1 });
  });

  it('LB lbnat: NodePort 10.127.130.38:31486 goes to a backend on port 80', () => {
    const p = policyOf('seed-lbnat.txt', 'OUT');
    const r = walkPort(p, 'port', 'OUT', { srcIp: '10.127.130.99', dstIp: '10.127.130.38', srcPort: 50000, dstPort: 31486, proto: 'tcp' }, { ...ctx, flow: { ...ctx.flow, dip: '10.244.19.32' } });
    expect(r.hops.find((h) => h.action === 'DNAT')?.rule).toBe('LB_86C16_10.127.130.38_10.127.130.38_31486_80_6');
    expect(r.packet).toMatchObject({ dstIp: '10.244.19.32', dstPort: 80 });
  });

  it('LB lbnat: UDP to the VIP matches neither rule (protocol 6 only)', () => {
    const p = policyOf('seed-lbnat.txt', 'OUT');
    const r = walkPort(p, 'port', 'OUT', { srcIp: '10.244.4.7', dstIp: '10.102.220.146', srcPort: 50000, dstPort: 80, proto: 'udp' }, ctx);
    expect(r.hops.some((h) => h.action === 'DNAT')).toBe(false);
    expect(r.packet.dstIp).toBe('10.102.220.146');
  });

  it('SLB_NAT_LAYER: the node subnet 10.127.130.0/24 is an OutboundNAT exception (allow, no SNAT)', () => {
    const p = parseVfpRuleText(fixture('seed-slb-nat-layer-list-rule.txt'), 'seed').value[0];
    const out = p.layers.flatMap((l) => l.groups).find((g) => g.direction === 'OUT')!;
    expect(out.matchType).toBe('lpm');
    const r = walkPort(p, 'pod port', 'OUT', { srcIp: '10.244.19.29', dstIp: '10.127.130.36', srcPort: 50000, dstPort: 22, proto: 'tcp' }, ctx);
    const hop = r.hops.find((h) => h.group === 'SLB_GROUP_NAT_IPv4_OUT')!;
    expect(hop.rule).toBe('EXCEPTIONS_OUTBOUNDNAT_3FEC9_10.127.130.3810.127.130.0');
    expect(hop.action).toBe('allow');
    expect(r.packet.srcIp).toBe('10.244.19.29');
  });

  it('SLB_NAT_LAYER IN: NAT_Allow lets traffic into the pod', () => {
    const p = parseVfpRuleText(fixture('seed-slb-nat-layer-list-rule.txt'), 'seed').value[0];
    const r = walkPort(p, 'pod port', 'IN', { srcIp: '10.244.0.3', dstIp: '10.244.19.29', srcPort: 53, dstPort: 50000, proto: 'udp' }, ctx);
    expect(r.droppedAt).toBeUndefined();
    expect(r.hops.find((h) => h.group === 'SLB_GROUP_NAT_IPv4_IN')?.rule).toBe('NAT_Allow');
  });

  it('REMOTESUBNETROUTE: 10.244.2.0/24 is VXLAN-encapsulated to 10.127.130.38 with VNI 4096', () => {
    const p = policyOf('seed-remotesubnetroute.txt', 'OUT', 'lpm');
    const r = walkPort(p, 'pod port', 'OUT', { srcIp: '10.244.3.5', dstIp: '10.244.2.17', srcPort: 50000, dstPort: 80, proto: 'tcp' }, ctx);
    expect(r.packet.encap).toMatchObject({ type: 'VXLAN', dstIp: '10.127.130.38', vni: 4096, srcIp: '10.127.130.36' });
    const other = walkPort(p, 'pod port', 'OUT', { srcIp: '10.244.3.5', dstIp: '10.244.0.9', srcPort: 50000, dstPort: 80, proto: 'tcp' }, ctx);
    expect(other.packet.encap).toMatchObject({ dstIp: '10.127.130.37', dstMac: 'F6-3C-2E-AB-57-6A', vni: 4096 });
  });

  it('EXTERNAL_L2_REWRITE: the container MAC is rewritten to the host MAC on the way out', () => {
    const p = parseVfpRuleText(fixture('seed-l2-rewrite.txt'), 'seed').value[0];
    const r = walkPort(p, 'uplink', 'IN', { srcIp: '10.244.4.7', dstIp: '10.244.18.5', srcPort: 50000, dstPort: 80, proto: 'tcp', srcMac: '00-15-5D-AA-B7-B8' }, ctx);
    const hop = r.hops.find((h) => h.ruleType === 'transposition')!;
    expect(hop.action).toBe('MAC rewrite');
    expect(r.packet.srcMac).toBe('00-15-5D-05-C3-0C');
    // another container's MAC is not rewritten
    const other = walkPort(p, 'uplink', 'IN', { srcIp: '10.244.4.8', dstIp: '10.244.18.5', srcPort: 50000, dstPort: 80, proto: 'tcp', srcMac: '00-15-5D-AA-00-01' }, ctx);
    expect(other.packet.srcMac).toBe('00-15-5D-AA-00-01');
  });
});
