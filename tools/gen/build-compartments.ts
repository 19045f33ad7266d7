// The network compartments of a generated node and their vNICs as `ipconfig /allcompartments` shows
// them: the host's (its vNIC, WinNAT's, the host endpoint's, Antrea's antrea-gw0) and one per pod, with
// the HNS namespaces that join endpoints to compartments. Split out of buildNode (build.ts); the draws
// from `rNet` and `rIds` happen in the same order as before, so every bundle is byte-identical.
import type { Rng } from './prng.ts';
import { hostAt } from './net.ts';
import type { NodeFrame } from './build-frame.ts';
import type { LocalEndpoints } from './build-endpoints.ts';
import type { Adapter, Compartment, HnsEndpoint, HnsNamespace, HnsNetwork } from './types.ts';

export interface CompartmentsBuilt {
  hostCompartment: Compartment;
  hostVnic: Adapter;
  natVnic: Adapter;
  hasNat: boolean;
  hostEpAdapter: Adapter | undefined;
  antreaGw: Adapter | undefined;
  namespaces: HnsNamespace[];
  compartments: Compartment[];
}

/** Windows prints IPv6 groups without leading zeros. */
function linkLocal(r: Rng): string {
  return 'fe80::' + [0, 1, 2, 3].map(() => r.int(0, 0xffff).toString(16)).join(':');
}

type NextIf = () => number;

/** The host's vNIC (the node address) and WinNAT's, in the draw order of ipconfig's listing. */
function hostAdapters(f: NodeFrame, natNet: HnsNetwork, nextIf: NextIf): { hostVnic: Adapter; natVnic: Adapter } {
  const { prof, rNet, addr } = f;
  const hostVnic: Adapter = {
    name: prof?.hostVnicName ?? 'vEthernet (Ethernet)',
    description: 'Hyper-V Virtual Ethernet Adapter',
    mac: f.hostMac,
    ifIndex: nextIf(),
    compartmentId: 1,
    ipv4: f.nodeIp,
    prefixLength: Number(f.nodeSubnet.split('/')[1]),
    gateway: f.nodeGateway,
    dnsServers: [prof?.name === 'eks-vpc-bridge' ? hostAt(addr!.vnetCidr!, 2) : '168.63.129.16'],
    dhcp: true,
    linkLocal: linkLocal(rNet),
    mtu: 1500,
    dnsSuffix: prof?.name === 'eks-vpc-bridge' ? 'ec2.internal' : 'reddog.microsoft.com',
  };
  const natVnic: Adapter = {
    name: 'vEthernet (nat)',
    description: 'Hyper-V Virtual Ethernet Adapter #2',
    mac: rNet.mac('00-15-5D'),
    ifIndex: nextIf(),
    compartmentId: 1,
    ipv4: natNet.gateway,
    prefixLength: 20,
    dnsServers: [],
    dhcp: false,
    linkLocal: linkLocal(rNet),
    mtu: 1500,
    dnsSuffix: '',
  };
  return { hostVnic, natVnic };
}

/** The vNIC of an endpoint in its compartment (the host endpoint's in the host's). */
function endpointAdapterMaker(f: NodeFrame, podPrefix: number, nextIf: NextIf): (ep: HnsEndpoint, compartmentId: number) => Adapter {
  const { prof, rNet } = f;
  let adapterNo = 3;
  const podMtu = f.spec.network === 'overlay' ? 1450 : 1500;
  return (ep, compartmentId) => ({
    name: `vEthernet (${ep.name})`,
    description: `Hyper-V Virtual Ethernet Adapter #${adapterNo++}`,
    mac: ep.mac,
    ifIndex: nextIf(),
    compartmentId,
    ipv4: ep.ip,
    prefixLength: prof ? podPrefix : 24,
    gateway: ep.kind === 'host' ? undefined : ep.gateway,
    dnsServers: ep.kind === 'host' ? [] : (ep.dns?.servers ?? [f.dnsVip]),
    dhcp: false,
    linkLocal: linkLocal(rNet),
    mtu: podMtu,
    dnsSuffix: ep.kind === 'host' || (prof && !ep.dns?.servers.length) ? '' : f.dnsSuffix,
    endpointId: ep.id,
  });
}

/** One compartment and HNS namespace per pod; the endpoint-without-vnic fault leaves one pod's vNIC out. */
function podCompartments(f: NodeFrame, k8sNet: HnsNetwork, local: LocalEndpoints, mkEpAdapter: (ep: HnsEndpoint, c: number) => Adapter, namespaces: HnsNamespace[], compartments: Compartment[]): void {
  const { prof, rIds } = f;
  const noVnic = f.faults.has('endpoint-without-vnic') ? local.podAt(-2) : undefined;
  for (const p of local.pods) {
    const guid = `{${rIds.guid().toLowerCase()}}`;
    const nsId = rIds.guid();
    p.namespaceId = nsId;
    namespaces.push({ id: nsId, compartmentId: p.compartmentId!, compartmentGuid: guid, type: 'Guest', endpointIds: [p.id] });
    // Names that depend on the HCN namespace (EKS cid-<namespace GUID>) are known only now.
    if (prof) p.name = prof.podEndpointName(p.containerId!, p.pod?.name ?? '', nsId, k8sNet.name);
    const a = mkEpAdapter(p, p.compartmentId!);
    if (p === noVnic) continue;
    p.ifIndex = a.ifIndex;
    compartments.push({ id: p.compartmentId!, guid, adapters: [a] });
  }
  if (noVnic) {
    f.faultRecords.push({ name: 'endpoint-without-vnic', detail: `endpoint ${noVnic.id} (${noVnic.ip}) has no vNIC in any compartment (compartment ${noVnic.compartmentId} missing from ip.txt)`, objects: [noVnic.id] });
  }
}

export function buildCompartments(f: NodeFrame, nets: { natNet: HnsNetwork; k8sNet: HnsNetwork; networks: HnsNetwork[] }, local: LocalEndpoints, endpoints: HnsEndpoint[]): CompartmentsBuilt {
  const { prof, rNet, rIds, podSubnet } = f;
  let ifIndex = 4;
  const nextIf = () => (ifIndex += rNet.int(1, 3));
  const hostCompartment: Compartment = { id: 1, guid: '{b1062982-2b18-4b4f-b3d5-a78ddb9cdd49}', adapters: [] };
  const { hostVnic, natVnic } = hostAdapters(f, nets.natNet, nextIf);
  const hasNat = nets.networks.includes(nets.natNet);
  hostCompartment.adapters.push(hostVnic, ...(hasNat ? [natVnic] : []));
  const mkEpAdapter = endpointAdapterMaker(f, local.podPrefix, nextIf);
  const namespaces: HnsNamespace[] = [];
  const hostEp = endpoints.find((e) => e.kind === 'host');
  let hostEpAdapter: Adapter | undefined;
  if (hostEp) {
    hostEpAdapter = mkEpAdapter(hostEp, 1);
    hostEp.ifIndex = hostEpAdapter.ifIndex;
    hostCompartment.adapters.push(hostEpAdapter);
  }
  // Antrea: antrea-gw0, the OVS internal port holding the pods' gateway (.1) on the host (windows-design.md:75).
  let antreaGw: Adapter | undefined;
  if (prof?.routeVia === 'antrea-gw0') {
    antreaGw = { name: 'antrea-gw0', description: 'Hyper-V Virtual Ethernet Adapter #2', mac: rNet.mac('00-15-5D'), ifIndex: nextIf(), compartmentId: 1, ipv4: hostAt(podSubnet, 1), prefixLength: local.podPrefix, dnsServers: [], dhcp: false, linkLocal: linkLocal(rNet), mtu: 1450, dnsSuffix: '' };
    hostCompartment.adapters.push(antreaGw);
  }
  namespaces.push({ id: rIds.guid(), compartmentId: 1, compartmentGuid: hostCompartment.guid, type: 'HostDefault', endpointIds: hostEp ? [hostEp.id] : [] });
  const compartments: Compartment[] = [hostCompartment];
  podCompartments(f, nets.k8sNet, local, mkEpAdapter, namespaces, compartments);
  return { hostCompartment, hostVnic, natVnic, hasNat, hostEpAdapter, antreaGw, namespaces, compartments };
}
