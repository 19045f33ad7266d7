// An address of the cluster's Service range that no Service holds (issue #25, "what nobody looked at"):
// on the AKS fixture (aks-win-zip-2025, kubeclusterconfig.json: ServiceCidr 10.0.0.0/16) a pod's packet
// to 10.0.0.5 was "forwarded" with a "delivered" reply — SNATed to the node and sent to the default
// gateway, as if something out there answered. Service addresses are virtual: each node's kube-proxy
// translates the ones it has (kubernetes.io, Service: a ClusterIP "makes the Service only reachable from
// within the cluster"; Virtual IPs and Service Proxies), and no network routes the range. So no answer is
// claimed: the verdict is unknown (insufficient information: a Service this node has not programmed
// yet, or none), never a delivered reply. A Service VIP of this node is walked as before.
import { describe, expect, it } from 'vitest';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { Flow } from '../../../analysis/walk/types.ts';
import { load } from './helpers.ts';

const AKS = 'test/fixtures/foreign/aks-win-zip-2025';

describe('AKS: an address of the Service range no Service holds', () => {
  const m = load(AKS);
  const flows: Flow[] = [
    { srcIp: '10.224.0.41', dstIp: '10.0.0.5', dstPort: 80, proto: 'tcp' },
    { srcIp: '10.224.0.47', dstIp: '10.0.120.9', dstPort: 53, proto: 'udp' },
    { srcIp: '10.224.0.35', dstIp: '10.0.255.254', dstPort: 443, proto: 'tcp' },
  ];
  for (const f of flows)
    it(`${f.srcIp} → ${f.dstIp}:${f.dstPort}/${f.proto} is unknown, and no answer is claimed`, () => {
      const w = walkFlow(m, f, { reply: true });
      expect(w.verdict).toBe('unknown');
      expect(w.reason).toMatch(/Service range 10\.0\.0\.0\/16/);
      expect(w.reply?.verdict).not.toBe('delivered');
      expect(w.hops[w.deciding]?.inferred).toBe(true);
    });

  it('a Service of this node in the same range is still walked (kube-dns 10.0.0.10:53/udp)', () => {
    const w = walkFlow(m, { srcIp: '10.224.0.41', dstIp: '10.0.0.10', dstPort: 53, proto: 'udp' }, { reply: true });
    expect(w.verdict).toBe('forwarded');
  });

  it('an address outside the range is walked as before (93.184.216.34:443)', () => {
    const w = walkFlow(m, { srcIp: '10.224.0.41', dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' }, { reply: true });
    expect(w.verdict).toBe('forwarded');
    expect(w.reply?.verdict).toBe('delivered');
  });
});

// EKS names the range in the vpc-bridge CNI config ("serviceCIDR": aws/amazon-vpc-cni-plugins
// plugins/vpc-bridge/config/netconfig.go), not in kubeclusterconfig.json.
describe('EKS: the Service range from vpc-bridge.conf', () => {
  it('192.168.40.101 → 10.100.99.99:80/tcp is unknown, citing the CNI config', () => {
    const w = walkFlow(load('test/fixtures/foreign-eks-vpc-bridge'), { srcIp: '192.168.40.101', dstIp: '10.100.99.99', dstPort: 80, proto: 'tcp' }, { reply: true });
    expect(w.verdict).toBe('unknown');
    expect(w.reason).toMatch(/Service range 10\.100\.0\.0\/16/);
    expect(w.hops[w.deciding]?.evidence?.file).toMatch(/vpc-bridge\.conf$/);
  });
});
