// What every part of a generated node is built from: the resolved spec, the random streams, the node's
// addressing and its peers. Split out of buildNode (build.ts); its draws from `rNet` happen first and in
// the same order as before, so every bundle is byte-identical (tools/gen-fingerprint.ts).
import { Rng } from './prng.ts';
import { addressing, platformHostMac, type Addressing, type PlatformProfile } from './platforms.ts';
import { resolveSpec } from './build-spec.ts';
import type { ClusterNodeContext, FaultName, FaultRecord, NodeSpec, ResolvedSpec } from './types.ts';

export interface RemoteNode {
  name: string;
  ip: string;
  podSubnet: string;
  drMac: string;
  firstPod: number;
}

export interface NodeFrame {
  prof: PlatformProfile | undefined;
  spec: ResolvedSpec;
  cluster: ClusterNodeContext | undefined;
  faults: Set<FaultName>;
  /** The faults as injected: the findings a check should report. */
  faultRecords: FaultRecord[];
  root: Rng;
  rIds: Rng;
  rNet: Rng;
  rSvc: Rng;
  /** Faults draw from their own stream so a faulty bundle differs from the healthy one only where intended. */
  rFault: Rng;
  legacyBuild: boolean;
  isL2: boolean;
  collectedAt: Date;
  hostMac: string;
  addr: Addressing | undefined;
  nodeIp: string;
  nodeSubnet: string;
  nodeGateway: string;
  clusterCidr: string;
  serviceCidr: string;
  /** The HNS subnet of the pods (a nat node's pods live in the NAT network's: set once it is built). */
  podSubnet: string;
  dnsVip: string;
  dnsSuffix: string;
  netName: string;
  remoteNodes: RemoteNode[];
}

export function isLegacyBuild(build: string): boolean {
  const n = Number(build.split('.')[2] ?? '0');
  return n < 20348;
}

export function nodeFrame(input: NodeSpec, cluster?: ClusterNodeContext): NodeFrame {
  const { prof, spec } = resolveSpec(input, cluster);
  const root = new Rng(spec.seed);
  const rIds = root.fork('ids');
  const rNet = root.fork('net');
  const rSvc = root.fork('svc');
  const rFault = root.fork('faults');
  const isL2 = spec.network === 'l2bridge';

  const collectedAt = new Date(Date.UTC(2024, 4, 14, 9, 12, 3) + (spec.seed % 997) * 3_600_000 + (spec.seed % 59) * 60_000);
  const hostIdx = rNet.int(4, 40);
  const drawnHostMac = platformHostMac(prof?.name, rNet.mac('00-0D-3A'));
  const hostMac = cluster?.hostMac ?? drawnHostMac;
  const subnetIdx = rNet.int(1, 60);
  const addr: Addressing | undefined = cluster ? cluster.addr : prof ? addressing(prof.name, hostIdx, subnetIdx, spec.pods) : undefined;
  const frame: NodeFrame = {
    prof,
    spec,
    cluster,
    faults: new Set(spec.faults as FaultName[]),
    faultRecords: [],
    root,
    rIds,
    rNet,
    rSvc,
    rFault,
    legacyBuild: isLegacyBuild(spec.windowsBuild),
    isL2,
    collectedAt,
    hostMac,
    addr,
    nodeIp: addr?.nodeIp ?? `10.240.0.${hostIdx}`,
    nodeSubnet: addr?.nodeSubnet ?? '10.240.0.0/16',
    nodeGateway: addr?.nodeGateway ?? '10.240.0.1',
    clusterCidr: addr ? addr.clusterCidr : '10.244.0.0/16',
    serviceCidr: addr ? addr.serviceCidr : '10.96.0.0/12',
    podSubnet: addr?.podSubnet ?? `10.244.${subnetIdx}.0/24`,
    dnsVip: addr ? addr.dnsVip : '10.96.0.10',
    dnsSuffix: 'default.svc.cluster.local',
    netName: prof ? prof.netName(addr!, hostMac) : isL2 ? 'cbr0' : 'vxlan0',
    remoteNodes: [],
  };
  frame.remoteNodes = remoteNodesOf(frame, hostIdx, subnetIdx);
  return frame;
}

/** The other nodes this one knows: the cluster's peers, or drawn (none on a nat node). */
function remoteNodesOf(f: NodeFrame, hostIdx: number, subnetIdx: number): RemoteNode[] {
  const { prof, addr, cluster, spec, rNet } = f;
  const noRemote = prof?.name === 'nat';
  const drawnRemote = Array.from({ length: noRemote || cluster ? 0 : spec.remoteNodes }, (_, i) => ({
    name: `aks-nodepool1-${rNet.hex(8, false).slice(0, 8)}-vmss00000${i}`,
    ip: addr ? addr.remote(i).ip : `10.240.0.${hostIdx + 1 + i}`,
    podSubnet: addr ? addr.remote(i).podSubnet : `10.244.${(subnetIdx + 1 + i) % 256}.0/24`,
    drMac: rNet.mac('00-15-5D'),
    firstPod: addr ? addr.remote(i).firstPod : 3,
  }));
  const remoteNodes = cluster ? cluster.peers.map((p) => ({ ...p })) : drawnRemote;
  if (prof && !cluster) {
    // Node names as each platform's clusters spell them.
    const stem = prof.name === 'eks-vpc-bridge' ? '' : prof.name.startsWith('azure') ? 'akswinnp' : prof.name === 'ovn-kubernetes' ? 'winworker-' : 'win-node-';
    remoteNodes.forEach((n, i) => (n.name = prof.name === 'eks-vpc-bridge' ? `ip-${n.ip.replace(/\./g, '-')}.ec2.internal` : `${stem}${String(i + 1).padStart(prof.name.startsWith('azure') ? 6 : 1, '0')}`));
  }
  return remoteNodes;
}
