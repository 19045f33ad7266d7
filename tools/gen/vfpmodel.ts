// The VFP side of the node: ports on the vSwitch and their layers, groups and rules, as HNS and
// kube-proxy program them. Rule arrays that are identical on every pod port (load balancers,
// exceptions, remote subnet routes) are shared by reference so a 250-pod / 4,000-LB node stays small
// in memory; the writer renders each shared rule's text once.

import type { Rng } from './prng.ts';
import { hash5 } from './prng.ts';
import { cidrBlock } from './net.ts';
import type { GeneratedNode, HnsEndpoint, HnsNetwork, LoadBalancer, VfpGroup, VfpLayer, VfpPort, VfpRule } from './types.ts';

const LPM = 'Longest prefix match on Destination IP';
const PRIO = 'Priority-based match';

function group(name: string, priority: number, direction: 'IN' | 'OUT', matchType: string, rules: VfpRule[], type = 'IPv4'): VfpGroup {
  return { name, priority, direction, type, matchType, rules };
}

function lbDsrRule(node: GeneratedNode, lb: LoadBalancer, mapSpace: string): VfpRule {
  const name = `LB_DSR_${lb.tag}_${node.nodeIp}_${lb.vip}_${lb.externalPort}_${lb.internalPort}_${lb.protocol}`;
  return {
    id: name,
    friendlyName: name,
    priority: 100,
    flags: '1 terminating',
    type: 'lbnat',
    conditions: [`Protocols : ${lb.protocol}`, `Destination IP : ${lb.vip}`, `Destination ports : ${lb.externalPort}`],
    ttl: 240,
    body: lbRuleData(lb, mapSpace),
  };
}

function lbRuleData(lb: LoadBalancer, mapSpace: string): { indent: number; text: string }[] {
  return [
    { indent: 0, text: 'Rule Data:' },
    { indent: 4, text: 'Decrementing TTL' },
    { indent: 4, text: 'Fixing MAC' },
    { indent: 4, text: 'Modifying destination IP' },
    { indent: 4, text: 'Modifying destination port' },
    { indent: 4, text: 'Creating a flow pair' },
    { indent: 4, text: `Map space : ${mapSpace}` },
    { indent: 4, text: `Count of DIP Ranges: ${lb.dips.length}` },
    { indent: 4, text: 'DIP Range(s) :' },
    ...lb.dips.map((ip) => ({ indent: 8, text: `{ ${ip} : ${lb.internalPort} }` })),
  ];
}

function hostLbRule(lb: LoadBalancer, mapSpace: string): VfpRule {
  const name = `LB_HOST_${lb.tag}_${lb.vip}_${lb.externalPort}_${lb.internalPort}_${lb.protocol}`;
  return {
    id: name,
    friendlyName: name,
    priority: 100,
    flags: '1 terminating',
    type: 'lbnat',
    conditions: [`Protocols : ${lb.protocol}`, `Destination IP : ${lb.vip}`, `Destination ports : ${lb.externalPort}`],
    ttl: 240,
    body: lbRuleData(lb, mapSpace),
  };
}

function slbLbRule(lb: LoadBalancer, mapSpace: string): VfpRule {
  // Like the seed's "LB_72C28_<mgmtIP>_<VIP>_80_80_6" rules these carry only a friendly name.
  const name = `LB_${hash5(lb.id + 'slb')}_${lb.vip}_${lb.externalPort}_${lb.externalPort}_${lb.protocol}`;
  return {
    id: '',
    friendlyName: name,
    priority: 100,
    flags: '1 terminating',
    type: 'lbnat',
    conditions: [`Protocols : ${lb.protocol}`, `Destination IP : ${lb.vip}`, `Destination ports : ${lb.externalPort}`],
    ttl: 60,
    body: lbRuleData(lb, mapSpace),
  };
}

function exceptionRules(node: GeneratedNode, list: string[]): VfpRule[] {
  return list.map((cidr) => {
    const c = cidrBlock(cidr);
    // Seed: EXCEPTIONS_OUTBOUNDNAT_3FEC9_10.127.130.3810.127.130.0 (node IP and prefix glued together).
    const name = `EXCEPTIONS_OUTBOUNDNAT_${hash5(node.nodeIp + cidr)}_${node.nodeIp}${c.network}`;
    return { id: '', friendlyName: name, priority: 0, flags: '1 terminating', type: 'allow', conditions: [`Destination IP : ${c.first}-${c.last}`], ttl: 240, body: [] };
  });
}

function remoteSubnetRule(node: GeneratedNode, prefix: string, pa: string, drMac: string): VfpRule {
  const c = cidrBlock(prefix);
  const name = `REMOTESUBNETROUTE_ENC4P_${hash5(prefix + pa)}_${c.network}_${c.prefixLen}_4096_${pa}_${drMac}`;
  return {
    id: name,
    friendlyName: name,
    priority: 10,
    flags: '1 terminating',
    type: 'routeencap',
    conditions: [`Destination IP : ${c.first}-${c.last}`],
    ttl: 0,
    body: [
      { indent: 0, text: 'Rule Data:' },
      { indent: 4, text: 'Encap Type: VXLAN' },
      { indent: 4, text: 'Fixing inner MAC' },
      { indent: 4, text: 'Using source PA MAC' },
      { indent: 4, text: 'Decrementing TTL' },
      { indent: 0, text: `Encap Source IP : ${node.nodeIp}` },
      { indent: 0, text: 'Encap Destination(s):' },
      { indent: 4, text: `{ IP address=${pa}, MAC address=${drMac}, GRE key=4096 }` },
    ],
  };
}

function aclRules(rng: Rng): { inRules: VfpRule[]; outRules: VfpRule[] } {
  const mk = (): VfpRule => ({ id: rng.guid(), priority: 65500, flags: '8195 terminating stateful', type: 'allow', conditions: [], ttl: 240, body: [] });
  return { inRules: [mk()], outRules: [mk()] };
}

/**
 * OutboundNAT as real nodes program it: one dynnat rule per protocol on each pod port, matching the
 * pod's own address, drawing from a per-pod NAT pool (kubernetes/kubernetes#79359 prints the rule;
 * microsoft/SDN TroubleShootContainerNetworking.ps1 models AKS's SNAT_TCP_OUTBOUNDNAT_<n>_<NAT IP>
 * with pool SLB_NATPOOL_IPV4_TCP_<pod IP><NAT IP><GUID><index>; Azure/AzureLocal-Supportability#137:
 * "a dynnat entry for protocol 6 (TCP) and 17 (UDP)"). The pool's NAT range is not printed here:
 * no sample of /list-nat-range output is public, so the walk reads the address from the rule name.
 */
function snatRules(node: GeneratedNode, ep: HnsEndpoint, isL2: boolean, natPoolGuid: string): VfpRule[] {
  return ([6, 17] as const).map((proto) => {
    const p = proto === 6 ? 'TCP' : 'UDP';
    const name = `SNAT_${p}_OUTBOUNDNAT_${parseInt(hash5(ep.id + p), 16) % 60000}_${node.nodeIp}`;
    return {
      id: '',
      friendlyName: name,
      priority: 100,
      flags: '3 terminating stateful',
      type: 'dynnat',
      conditions: [`Protocols : ${proto}`, `Source IP : ${ep.ip}`],
      ttl: 240,
      body: [
        { indent: 0, text: `MSS delta: ${isL2 ? 0 : 50},0` },
        { indent: 0, text: `Type : Source NAT;         NAT pool : SLB_NATPOOL_IPV4_${p}_${ep.ip}${node.nodeIp}${natPoolGuid}0` },
      ],
    };
  });
}

function paRouteRule(node: GeneratedNode): VfpRule {
  return {
    id: '',
    friendlyName: 'PA_ROUTE',
    priority: 45535,
    flags: '1 terminating',
    type: 'paroute',
    conditions: [],
    ttl: 0,
    body: [
      { indent: 0, text: 'Rule Data:' },
      { indent: 0, text: 'VLAN ID: 0' },
      { indent: 0, text: 'Using default compartment' },
      { indent: 0, text: 'Cache pruning threshold: 10' },
      { indent: 0, text: 'Cache pruning timeout: 30 seconds' },
      { indent: 0, text: `Using interface constraint with interface index: ${node.compartments[0].adapters[0].ifIndex}` },
    ],
  };
}

/**
 * The host reaches other nodes' pods through map-based encap rules, printed as in the troubleshooting
 * guide's overlay ENCAP rule ("Type : m encaps", Map space, GRE key, "CA routing enabled", Encap Source
 * IP): the provider address is looked up in the map space, not written in the rule. The generator
 * puts them on the host vNIC (the pod ports keep REMOTESUBNETROUTE rules) so bundles carry both forms;
 * its /list-mapping output stays empty (no public sample shows that format).
 */
function hostEncapRules(node: GeneratedNode, k8sNet: HnsNetwork, encapSpace: string): VfpRule[] {
  return k8sNet.remoteSubnetRoutes.map((r) => {
    const c = cidrBlock(r.prefix);
    const gw = c.network.split('.').slice(0, 3).concat(String(Number(c.network.split('.')[3]) + 1)).join('_');
    return {
      id: `ENCAP_${gw}`,
      friendlyName: `ENCAP_${gw}`,
      priority: 100,
      flags: '1 terminating',
      type: 'm encaps',
      conditions: [`Destination IP : ${c.first}-${c.last}`],
      ttl: 0,
      body: [
        { indent: 0, text: 'Rule Data:' },
        { indent: 4, text: `Map space : ${encapSpace}` },
        { indent: 4, text: 'GRE key : 4096' },
        { indent: 4, text: 'Encap type : VXLAN' },
        { indent: 4, text: 'CA routing enabled' },
        { indent: 4, text: `Encap Source IP : ${node.nodeIp}` },
      ],
    };
  });
}

/**
 * The uplink's layers. On l2bridge the EXTERNAL_L2_REWRITE_LAYER lives here: packets leaving through the
 * external port (direction IN from the port's point of view) get the container MAC replaced by the host
 * MAC, as the seed's EXTERNAL_L2_REWRITE_GROUP_IPV4_IN rule shows.
 */
function externalLayers(node: GeneratedNode, localEps: HnsEndpoint[], isL2: boolean): VfpLayer[] {
  if (!isL2) return [];
  const rules: VfpRule[] = localEps
    .filter((e) => e.kind === 'pod')
    .map((e) => ({
      id: `${e.portGuid}_to_EN`,
      priority: 280,
      flags: '1 terminating',
      type: 'transposition',
      conditions: [`Source MAC : ${e.mac}`],
      ttl: 0,
      body: [
        { indent: 0, text: 'Transposition:' },
        { indent: 4, text: 'Modify:' },
        { indent: 8, text: `Source MAC: ${node.hostMac}` },
      ],
    }));
  return [{ name: 'EXTERNAL_L2_REWRITE_LAYER', priority: 500, groups: [group('EXTERNAL_L2_REWRITE_GROUP_IPV4_IN', 0, 'IN', LPM, rules, 'IPV4')] }];
}

/** The rules every port of a kind shares, made once per node. */
interface PortRules {
  isL2: boolean;
  lbDsr: VfpRule[];
  hostLb: VfpRule[];
  slbLb: VfpRule[];
  natAllow: VfpRule[];
  natPoolGuid: string;
  exceptionsFor: (ep: HnsEndpoint) => VfpRule[];
  remoteRoutes: VfpRule[];
  paRoute: VfpRule[];
  hostEncap: VfpRule[];
}

function portRules(node: GeneratedNode, k8sNet: HnsNetwork, rng: Rng, opts: { missingRemote?: string }): PortRules {
  const mapSpace = rng.guid();
  const natPoolGuid = rng.guid();
  const exceptionCache = new Map<string, VfpRule[]>();
  const exceptionsFor = (ep: HnsEndpoint) => {
    const key = ep.exceptionList.join(',');
    let r = exceptionCache.get(key);
    if (!r) exceptionCache.set(key, (r = exceptionRules(node, ep.exceptionList)));
    return r;
  };
  return {
    isL2: k8sNet.type === 'l2bridge',
    lbDsr: node.loadBalancers.map((lb) => lbDsrRule(node, lb, mapSpace)),
    hostLb: node.loadBalancers.map((lb) => hostLbRule(lb, mapSpace)),
    slbLb: node.loadBalancers.map((lb) => slbLbRule(lb, mapSpace)),
    natAllow: [{ id: '', friendlyName: 'NAT_Allow', priority: 65535, flags: '1 terminating', type: 'allow', conditions: [], ttl: 0, body: [] }],
    natPoolGuid,
    exceptionsFor,
    remoteRoutes: k8sNet.remoteSubnetRoutes.filter((r) => r.prefix !== opts.missingRemote).map((r) => remoteSubnetRule(node, r.prefix, r.pa, r.drMac)),
    paRoute: [paRouteRule(node)],
    hostEncap: hostEncapRules(node, k8sNet, rng.guid()),
  };
}

/** An endpoint's layers: ACLs on every one; on a pod's, DSR load balancing, NAT and (overlay) encap. */
function endpointLayers(node: GeneratedNode, ep: HnsEndpoint, r: PortRules, rng: Rng): VfpLayer[] {
  const acl = aclRules(rng);
  const layers: VfpLayer[] = [
    { name: 'ACL_ENDPOINT_LAYER', priority: 15, groups: [group('ACL_ENDPOINT_GROUP_IPV4_IN', 0, 'IN', PRIO, acl.inRules), group('ACL_ENDPOINT_GROUP_IPV4_OUT', 0, 'OUT', PRIO, acl.outRules)] },
  ];
  if (ep.kind !== 'pod') return layers;
  layers.push(
    { name: 'LB_DSR', priority: 45, flags: '0x1 Default Allow', groups: [group('LB_DSR_IPv4_OUT', 100, 'OUT', PRIO, r.lbDsr)] },
    {
      name: 'SLB_NAT_LAYER',
      priority: 50,
      flags: '0x9 Default Allow , Update flows on address change',
      groups: [group('SLB_GROUP_NAT_IPv4_IN', 100, 'IN', LPM, r.natAllow), group('SLB_GROUP_NAT_IPv4_OUT', 300, 'OUT', LPM, [...r.exceptionsFor(ep), ...snatRules(node, ep, r.isL2, r.natPoolGuid)])],
    },
  );
  if (!r.isL2) {
    layers.push(
      { name: 'VNET_ENCAP_LAYER', priority: 1000, flags: '0x1 Default Allow', groups: [group('VNET_ENCAP_GROUP_IPv4_OUT', 100, 'OUT', LPM, r.remoteRoutes)] },
      { name: 'VNET_PA_ROUTE_LAYER', priority: 2000, flags: '0x1 Default Allow', groups: [group('VNET_PA_ROUTE_GROUP_IPv4_OUT', 100, 'OUT', PRIO, r.paRoute)] },
    );
  }
  return layers;
}

export function buildVfpPorts(node: GeneratedNode, rng: Rng, opts: { missingRemote?: string }): VfpPort[] {
  const k8sNet = node.networks.find((n) => n.type !== 'nat')!;
  const r = portRules(node, k8sNet, rng, opts);
  const ports: VfpPort[] = [];
  let portId = 1;
  const base = {
    switchName: k8sNet.switchId,
    switchFriendlyName: k8sNet.name,
    mtu: 1500,
    blocked: false,
  };
  const localEps = node.endpoints.filter((e) => e.kind !== 'remote');
  const extLayers = externalLayers(node, localEps, r.isL2);
  ports.push({
    ...base,
    name: k8sNet.externalPortGuid!,
    friendlyName: 'ExternalPort',
    kind: 'external',
    mac: node.hostMac,
    portId: portId++,
    nicName: rng.guid(),
    nicFriendlyName: 'Ethernet',
    vmName: node.hostName,
    vmId: rng.guid(),
    layers: extLayers,
  });
  ports.push({
    ...base,
    name: k8sNet.hostVnicPortGuid!,
    friendlyName: k8sNet.hostVnicFriendly!,
    kind: 'host',
    mac: node.hostMac,
    portId: portId++,
    nicName: rng.guid(),
    nicFriendlyName: 'vEthernet (Ethernet)',
    vmName: node.hostName,
    vmId: rng.guid(),
    layers: [
      { name: 'LB', priority: 40, flags: '0x1 Default Allow', groups: [group('LB_OUT_V4', 100, 'OUT', PRIO, r.hostLb)] },
      { name: 'SLB_LB_LAYER', priority: 60, flags: '0x9 Default Allow , Update flows on address change', groups: [group('SLB_GROUP_LB_IPv4_OUT', 100, 'OUT', PRIO, r.slbLb)] },
      ...(r.isL2 ? [] : [{ name: 'VNET_ENCAP_LAYER', priority: 1000, flags: '0x1 Default Allow', groups: [group('VNET_ENCAP_GROUP_IPv4_OUT', 100, 'OUT', LPM, r.hostEncap)] }]),
    ],
  });
  for (const ep of localEps) {
    const layers = endpointLayers(node, ep, r, rng);
    ports.push({
      ...base,
      mtu: r.isL2 ? 1500 : 1450,
      name: ep.portGuid!,
      friendlyName: ep.id,
      kind: 'endpoint',
      mac: ep.mac,
      portId: portId++,
      nicName: `${ep.id}--${rng.guid()}`,
      nicFriendlyName: ep.name,
      vmName: ep.containerId ?? node.hostName,
      vmId: rng.guid(),
      endpointId: ep.id,
      layers,
    });
  }
  return ports;
}
