// The local HNS endpoints of a generated node: the host's (l2bridge's cbr0_ep, a plugin's bridge
// endpoint), kube-proxy's source VIP, and one per pod with its policies, exceptions and DNS. Split out
// of buildNode (build.ts); the draws from `rIds` happen in the same order as before, so every bundle is
// byte-identical (tools/gen-fingerprint.ts).
import { conjureMac, hostAt } from './net.ts';
import { podGateway as platformGateway } from './platforms.ts';
import type { NodeFrame } from './build-frame.ts';
import type { EpPolicy, HnsEndpoint, HnsNetwork } from './types.ts';

export interface LocalEndpoints {
  endpoints: HnsEndpoint[];
  pods: HnsEndpoint[];
  bridgeEp: HnsEndpoint | undefined;
  sourceVipEp: HnsEndpoint | undefined;
  podPrefix: number;
  podGateway: string;
  firstPod: number;
  /** The endpoint policies of a pod at this address (a platform's; undefined on a plain node). */
  podPolicyFor: (ip: string) => EpPolicy[] | undefined;
  /** The k-th pod, counted from either end (podAt(-1) is the last). */
  podAt: (k: number) => HnsEndpoint;
}

type LocalKind = 'pod' | 'host' | 'sourcevip';
type MakeLocal = (kind: LocalKind, name: string, ip: string, gateway: string, compartmentId: number | undefined, containerId?: string) => HnsEndpoint;

function podPolicies(f: NodeFrame): (ip: string) => EpPolicy[] | undefined {
  return (ip) => {
    if (!f.prof) return undefined;
    const pol = f.prof.podPolicies(f.addr!, ip);
    const other = f.cluster?.exceptions;
    return other ? pol.map((x) => (x.type === 'OutBoundNAT' ? { ...x, exceptions: other(x.exceptions) } : x)) : pol;
  };
}

/** The pods' ExceptionList on a plain node (the exception-list-typo fault writes the cluster CIDR with /0). */
function plainExceptions(f: NodeFrame): string[] {
  const base = [f.clusterCidr, f.serviceCidr, f.nodeSubnet];
  if (!f.faults.has('exception-list-typo')) return base;
  return f.prof ? [] : base.map((e) => (e === f.clusterCidr ? '10.244.0.0/0' : e));
}

/** The fault's typo on a platform's list: the pod range's entry written with /0 (cluster CIDR, else the VNet/VPC CIDR, else the first). */
function withTypo(f: NodeFrame, list: string[]): string[] {
  const i = list.indexOf(f.clusterCidr) >= 0 ? list.indexOf(f.clusterCidr) : Math.max(0, list.indexOf(f.addr?.vnetCidr ?? ''));
  return list.map((e, k) => (k === i ? `${e.split('/')[0]}/0` : e));
}

function localMaker(f: NodeFrame, k8sNet: HnsNetwork, podPrefix: number): MakeLocal {
  const { prof, rIds, spec, legacyBuild } = f;
  const podExceptions = plainExceptions(f);
  return (kind, name, ip, gateway, compartmentId, containerId) => {
    const id = rIds.guid();
    return {
      id,
      name,
      kind,
      ip,
      mac: prof?.podMacPrefix && kind === 'pod' ? conjureMac(prof.podMacPrefix, ip) : rIds.mac('00-15-5D'),
      prefixLength: prof ? podPrefix : 24,
      gateway,
      networkId: k8sNet.id,
      networkName: k8sNet.name,
      portGuid: kind === 'sourcevip' ? undefined : spec.schema === 2 && !legacyBuild ? id : rIds.guid(),
      compartmentId,
      containerId,
      exceptionList: kind === 'pod' ? podExceptions : [],
      version: 38654705666 + rIds.int(0, 3),
      activityId: rIds.guid(),
    };
  };
}

/** The host-side endpoints: cbr0_ep on a plain l2bridge node, a plugin's bridge endpoint, kube-proxy's source VIP. */
function hostSideEndpoints(f: NodeFrame, mkLocal: MakeLocal): Pick<LocalEndpoints, 'endpoints' | 'bridgeEp' | 'sourceVipEp'> {
  const { prof, isL2, netName, podSubnet, nodeIp } = f;
  const endpoints: HnsEndpoint[] = [];
  if (!prof && isL2) endpoints.push(mkLocal('host', `${netName}_ep`, hostAt(podSubnet, 2), hostAt(podSubnet, 1), 1));
  let bridgeEp: HnsEndpoint | undefined;
  if (prof?.bridgeEndpoint && !prof.bridgeEndpoint.remote) {
    bridgeEp = mkLocal('host', prof.bridgeEndpoint.name, hostAt(podSubnet, 2), hostAt(podSubnet, 1), 1);
    bridgeEp.policies = prof.network === 'overlay' ? [{ type: 'PA', pa: nodeIp }] : [{ type: 'L2Driver' }];
    endpoints.push(bridgeEp);
  }
  let sourceVipEp: HnsEndpoint | undefined;
  if (prof?.sourceVipEndpoint) {
    // kube-proxy's source VIP on overlay: a local endpoint with the host MAC and the node as PA, in no
    // compartment (kubernetes pkg/proxy/winkernel proxier.go syncProxyRules, "Source Vip endpoint").
    sourceVipEp = mkLocal('sourcevip', 'source-vip', hostAt(podSubnet, 2), '', undefined);
    sourceVipEp.mac = f.hostMac;
    sourceVipEp.policies = [{ type: 'PA', pa: nodeIp }];
    endpoints.push(sourceVipEp);
  }
  return { endpoints, bridgeEp, sourceVipEp };
}

export function buildLocalEndpoints(f: NodeFrame, k8sNet: HnsNetwork): LocalEndpoints {
  const { prof, isL2, podSubnet, netName, spec, rIds, addr, cluster } = f;
  const podPolicyFor = podPolicies(f);
  const podGateway = prof ? platformGateway(prof, { ...addr!, podSubnet }) : isL2 ? hostAt(podSubnet, 2) : hostAt(podSubnet, 1);
  const podPrefix = Number(podSubnet.split('/')[1]);
  const mkLocal = localMaker(f, k8sNet, podPrefix);
  const { endpoints, bridgeEp, sourceVipEp } = hostSideEndpoints(f, mkLocal);
  const pods: HnsEndpoint[] = [];
  const firstPod = addr?.firstPod ?? 3;
  const clusterPod = new Map((cluster?.pods ?? []).map((p) => [p.ip, p]));
  for (let i = 0; i < spec.pods; i++) {
    const drawnId = rIds.hex(64, false);
    const ip = hostAt(podSubnet, firstPod + i);
    // The cluster's snapshot already names this pod's sandbox; the endpoint carries the same ID.
    const containerId = clusterPod.get(ip)?.containerId || drawnId;
    const ep = mkLocal('pod', `${containerId}_${netName}`, ip, podGateway, 2 + i, containerId);
    if (prof) {
      ep.policies = podPolicyFor(ip);
      const nat = ep.policies!.find((x) => x.type === 'OutBoundNAT') as { type: 'OutBoundNAT'; exceptions: string[] } | undefined;
      if (nat && f.faults.has('exception-list-typo')) nat.exceptions = withTypo(f, nat.exceptions);
      ep.exceptionList = nat ? [...nat.exceptions] : [];
      ep.dns = prof.podDns(addr!, 'default');
    }
    pods.push(ep);
    endpoints.push(ep);
  }
  const podAt = (k: number) => pods[((k % pods.length) + pods.length) % pods.length];
  return { endpoints, pods, bridgeEp, sourceVipEp, podPrefix, podGateway, firstPod, podPolicyFor, podAt };
}
