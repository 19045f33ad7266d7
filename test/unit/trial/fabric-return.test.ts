// A pod's packet that leaves unSNATed towards an address of the pod network the plugin exempts from
// OutBoundNAT, on a plugin whose cloud network carries pod addresses (issue #25, trial on bundles shaped
// unlike ours). EKS vpc-bridge gives pods secondary IPs of the node's ENI and exempts the VPC CIDRs
// from SNAT (aws/amazon-vpc-cni-plugins plugins/vpc-bridge/network/bridge_windows.go: snatExceptions =
// VPC CIDRs + service CIDR); Azure CNI Overlay exempts the cluster CIDR and Azure's routing domain
// carries pod CIDRs (AKS "Azure CNI Overlay" docs; Azure/AgentBaker azurecnifunc.ps1). Such a packet's
// answer was "unknown" ("an answer arrives only if the network outside routes the pod address back")
// while the same packet to an address kube-proxy had made a remote endpoint for read "delivered". The
// plugin's own fact says the network routes pod addresses: the reply is walked as it comes back,
// marked inferred. A Service-range address (also exempt, but no network routes it) keeps its caveat.
import { describe, expect, it } from 'vitest';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { Flow } from '../../../analysis/walk/types.ts';
import { load } from '../walk/helpers.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import { fabricCarriesBack } from '../../../analysis/walk/fabric-return.ts';

const EKS = 'test/fixtures/foreign-eks-vpc-bridge';
const AKS = 'test/fixtures/foreign-aks-overlay';

describe('fabric platforms: a pod address the plugin leaves unSNATed comes back', () => {
  const cases: [string, Flow][] = [
    [EKS, { srcIp: '192.168.36.220', dstIp: '192.168.88.50', dstPort: 8080, proto: 'tcp' }],
    [EKS, { srcIp: '192.168.36.220', dstIp: '192.168.5.9', dstPort: 53, proto: 'udp' }],
    [AKS, { srcIp: '10.244.2.41', dstIp: '10.244.3.20', dstPort: 80, proto: 'tcp' }],
  ];
  for (const [b, f] of cases)
    it(`${b.split('/').pop()}: ${f.srcIp} → ${f.dstIp}:${f.dstPort}/${f.proto}`, () => {
      const w = walkFlow(load(b), f, { reply: true });
      expect(w.verdict).toBe('forwarded');
      expect(w.caveats?.some((c) => c.kind === 'no-return')).toBe(false);
      expect(w.reply?.verdict).toBe('delivered');
      expect(w.reply?.inferred).toBe(true);
      expect(w.reply?.caveats?.some((c) => c.kind === 'no-return')).toBe(false);
    });
  it('an exempt Service-range address nothing serves keeps the caveat (EKS 10.100.99.99)', () => {
    const w = walkFlow(load(EKS), { srcIp: '192.168.36.220', dstIp: '10.100.99.99', dstPort: 80, proto: 'tcp' }, { reply: true });
    expect(w.reply?.verdict).not.toBe('delivered');
  });
});

// Azure CNI's own conflists also exempt 10.0.0.0/8 (Azure/azure-container-networking
// cni/azure-windows-swift-overlay-consolidated.conflist): an exemption that wide spans networks the
// fabric does not route pod addresses back from. Only the narrowest exemption holding the pod counts
// (review, session 11: 10.50.1.1 read "reply delivered").
describe('a wider exemption than the pod network', () => {
  it('is no pod range: an address in 10.0.0.0/8 but not in the pod network is not answered through the fabric', () => {
    const base = walkContext(load(AKS));
    const ep = base.local.get('10.244.2.41')!;
    const local = new Map(base.local);
    local.set('10.244.2.41', { ...ep, outboundNat: ep.outboundNat.map((o) => ({ ...o, exceptions: [...o.exceptions, '10.0.0.0/8'] })) });
    const ctx = { ...base, local };
    expect(fabricCarriesBack(ctx, '10.244.2.41', '10.50.1.1')).toBeUndefined();
    expect(fabricCarriesBack(ctx, '10.244.2.41', '10.244.3.20')).toMatch(/both in 10\.244\.0\.0\/16/);
  });
});
