// A generator spec checked and completed: the platform's profile, its network, its host name, and the
// faults that apply to it. Split out of buildNode (build.ts); it draws nothing.
import { PROFILES, platformHostName, type PlatformProfile } from './platforms.ts';
import { FAULTS, PLATFORM_FAULTS, type ClusterNodeContext, type NodeSpec, type ResolvedSpec } from './types.ts';

export const DEFAULT_SPEC: Required<Omit<NodeSpec, 'platform'>> = {
  seed: 1,
  // A plain l2bridge node of no cloud: named as platformHostName names such nodes (an AKS-style
  // `akswin…` name made it read as an AKS node, which it is not).
  hostName: 'win-node-0',
  network: 'l2bridge',
  schema: 2,
  pods: 8,
  services: 10,
  remoteNodes: 2,
  vfpGeneration: 'get-rule-counter',
  windowsBuild: '10.0.20348.2340',
  faults: [],
};

export function resolveSpec(input: NodeSpec, cluster?: ClusterNodeContext): { prof: PlatformProfile | undefined; spec: ResolvedSpec } {
  const prof = input.platform ? PROFILES[input.platform] : undefined;
  if (input.platform && !prof) throw new Error(`unknown platform '${input.platform}'`);
  const spec: ResolvedSpec = { ...DEFAULT_SPEC, ...input, ...(prof ? { network: prof.network } : {}), faults: [...(input.faults ?? [])] };
  // A platform node left at the default host name is named as that platform names its nodes.
  if (prof && spec.hostName === DEFAULT_SPEC.hostName && !cluster) spec.hostName = platformHostName(prof.name, 0);
  for (const f of spec.faults) {
    if ((PLATFORM_FAULTS as readonly string[]).includes(f) && !prof) throw new Error(`fault '${f}' needs a platform node (spec.platform)`);
    if (!(FAULTS as readonly string[]).includes(f) && !(PLATFORM_FAULTS as readonly string[]).includes(f)) throw new Error(`unknown fault '${f}' (known: ${[...FAULTS, ...PLATFORM_FAULTS].join(', ')})`);
  }
  if (spec.pods < 1 || spec.pods > 250) throw new Error('pods must be between 1 and 250 (one /24 pod subnet per node: .3-.252)');
  if (prof && spec.pods > prof.maxPods) throw new Error(`${prof.name} nodes hold at most ${prof.maxPods} pods here (one ${prof.name.startsWith('calico') ? '/26 IPAM block' : 'address range'} per node)`);
  if (prof?.name === 'nat' && spec.faults.some((f) => !['blocked-port', 'endpoint-without-vnic', 'duplicate-ip', 'slow-cni-add', 'cni-add-failures'].includes(f))) throw new Error('a nat node has no Kubernetes network: only blocked-port, endpoint-without-vnic, duplicate-ip and the log faults apply');
  if (!cluster && (spec.remoteNodes < 0 || spec.remoteNodes > 150)) throw new Error('remoteNodes must be between 0 and 150');
  return { prof, spec };
}
