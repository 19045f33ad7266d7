// Whether the cloud network carries a pod's own address back to this node (engine/routing.ts and
// engine/reply.ts ask before saying "an answer arrives only if the network outside routes the pod
// address back"). On the plugins whose pod addresses the cloud fabric routes (analysis/platform facts,
// `crossNode.how: 'fabric'`: Azure CNI, Azure CNI Overlay, EKS vpc-bridge) the plugin exempts from
// OutBoundNAT exactly the ranges where that holds: the VPC CIDRs on EKS (aws/amazon-vpc-cni-plugins
// plugins/vpc-bridge/network/bridge_windows.go, snatExceptions), the cluster and VNet CIDRs on Azure
// CNI, the cluster CIDR on Azure CNI Overlay (Azure/AgentBaker staging/cse/windows/azurecnifunc.ps1).
// So a packet that leaves unSNATed to an address of the narrowest exception range that holds the pod's
// own address (the pod network, not the Service range) is answered through the fabric — an inference from
// the plugin's facts, marked so on the reply. (test/unit/trial/fabric-return.test.ts)
import { detectPlatform, factsOf } from '../platform/index.ts';
import { canonIp, inCidr, podRangeCandidate, prefixBits } from './ip.ts';
import type { WalkContext } from './context.ts';

/** The plugin's words and source when the fabric carries `srcIp` back from `dstIp`; undefined when not known to. */
export function fabricCarriesBack(ctx: WalkContext, srcIp: string, dstIp: string): string | undefined {
  const ep = ctx.local.get(canonIp(srcIp) ?? srcIp);
  if (!ep) return undefined;
  const f = factsOf(detectPlatform(ctx.model).plugin);
  if (!f || f.crossNode.how !== 'fabric' || !f.outboundNat.exemptsPods) return undefined;
  // The pod network is the narrowest exception that holds the pod: a wider one (Azure CNI's own
  // conflists exempt 10.0.0.0/8, Azure/azure-container-networking cni/azure-windows-swift-overlay-
  // consolidated.conflist) spans networks the fabric does not route pod addresses back from.
  const holding = ep.outboundNat.flatMap((o) => o.exceptions).filter((x) => podRangeCandidate(x) && inCidr(srcIp, x));
  const range = holding.sort((a, b) => (prefixBits(b) ?? -1) - (prefixBits(a) ?? -1))[0];
  if (!range || !inCidr(dstIp, range)) return undefined;
  return `${dstIp} and the pod's address are both in ${range}, which the pod's OutBoundNAT exempts; with ${f.label} the cloud network carries pod addresses (${f.crossNode.source})`;
}
