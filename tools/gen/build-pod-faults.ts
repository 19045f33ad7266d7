// The faults that change the local pods after they are built: a typo in the OutBoundNAT ExceptionList,
// a wrong gateway, two pods with one address. Each is recorded in `faultRecords` (the expected
// findings). Split out of buildNode (build.ts); it draws nothing, so the bundles stay byte-identical.
import { hostAt } from './net.ts';
import type { PlatformProfile } from './platforms.ts';
import type { EpPolicy, FaultName, FaultRecord, HnsEndpoint } from './types.ts';

export interface PodFaultInputs {
  faults: Set<FaultName>;
  prof: PlatformProfile | undefined;
  pods: HnsEndpoint[];
  podAt: (k: number) => HnsEndpoint;
  podPolicyFor: (ip: string) => EpPolicy[] | undefined;
  clusterCidr: string;
  podGateway: string;
  podSubnet: string;
  isL2: boolean;
  faultRecords: FaultRecord[];
}

export function applyPodFaults(x: PodFaultInputs): void {
  const { faults, prof, pods, podAt, podPolicyFor, clusterCidr, podGateway, podSubnet, isL2, faultRecords } = x;
  if (faults.has('exception-list-typo')) {
    if (prof && !pods[0].exceptionList.length) throw new Error(`exception-list-typo: ${prof.name} pods have no OutBoundNAT ExceptionList`);
    const bad = prof ? pods[0].exceptionList.find((x) => x.endsWith('/0'))! : '10.244.0.0/0';
    const meant = prof ? podPolicyFor(pods[0].ip)!.flatMap((x) => (x.type === 'OutBoundNAT' ? x.exceptions : [])).find((x) => x.split('/')[0] === bad.split('/')[0])! : clusterCidr;
    faultRecords.push({ name: 'exception-list-typo', detail: `OutBoundNAT ExceptionList has ${bad} instead of ${meant}`, objects: pods.map((p) => p.id) });
  }
  if (faults.has('wrong-gateway')) {
    if (prof && prof.name === 'nat') throw new Error('wrong-gateway: not on a nat node');
    const p = podAt(1);
    p.gateway = prof ? (podGateway === hostAt(podSubnet, 2) ? hostAt(podSubnet, 1) : hostAt(podSubnet, 2)) : isL2 ? hostAt(podSubnet, 1) : hostAt(podSubnet, 2);
    faultRecords.push({ name: 'wrong-gateway', detail: `pod ${p.ip} has gateway ${p.gateway}, expected ${podGateway}`, objects: [p.id] });
  }
  if (faults.has('duplicate-ip')) {
    if (pods.length < 2) throw new Error('duplicate-ip needs at least 2 pods');
    const p = podAt(-1);
    const orig = p.ip;
    p.ip = pods[0].ip;
    if (prof?.podMacPrefix) p.mac = pods[0].mac.replace(/..$/, (x) => ((parseInt(x, 16) + 1) & 255).toString(16).padStart(2, '0').toUpperCase());
    faultRecords.push({ name: 'duplicate-ip', detail: `pod endpoint ${p.id} has ${p.ip} (also ${pods[0].id}); its own address would have been ${orig}`, objects: [pods[0].id, p.id] });
  }
}
