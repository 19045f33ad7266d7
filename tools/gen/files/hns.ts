// network.txt, endpoint.txt, namespaces.txt, policy.txt (+ networkdetailed.txt, hnsportpoolallocs.txt):
// a Select table/list, then `ConvertTo-Json -Depth 20` of the HNS documents (v1 or v2/HCN schema).

import { Raw, psJsonPipeline, type PsValue } from '../psjson.ts';
import { psList, psTable } from '../psformat.ts';
import type { EpPolicy, GeneratedNode, HnsEndpoint, HnsNamespace, HnsNetwork, LoadBalancer } from '../types.ts';

type Obj = { [k: string]: PsValue };

function filetime(node: GeneratedNode, offsetSec: number): Raw {
  // 100 ns ticks since 1601-01-01.
  const ms = node.collectedAt.getTime() - offsetSec * 1000 + 11644473600000;
  return new Raw(`${BigInt(ms) * 10000n + 4321n}`);
}

function v1Health(node: GeneratedNode, ago: number): Obj {
  return { LastErrorCode: 0, LastUpdateTime: filetime(node, ago) };
}

export const v2Type = (n: HnsNetwork) => (n.type === 'nat' ? 'NAT' : n.type === 'l2bridge' ? 'L2Bridge' : n.type === 'transparent' ? 'Transparent' : 'Overlay');
const v1Type = (n: HnsNetwork) => (n.type === 'nat' ? 'nat' : n.type === 'l2bridge' ? 'l2bridge' : n.type === 'transparent' ? 'Transparent' : 'Overlay');
const epType = (node: GeneratedNode, e: HnsEndpoint) => {
  const n = node.networks.find((x) => x.id === e.networkId);
  return n ? v2Type(n) : node.spec.network === 'l2bridge' ? 'L2Bridge' : 'Overlay';
};
const vsidOf = (n: HnsNetwork) => n.vsid ?? 4096;
/** Networks kube-proxy and the CNI program (not nat, not the installers' vSwitch-holding networks). */
const isK8sNet = (n: HnsNetwork) => n.type !== 'nat' && !n.infra;

// ---------------------------------------------------------------- networks
export function networkV1(node: GeneratedNode, n: HnsNetwork): Obj {
  const isK8s = isK8sNet(n);
  const policies: Obj[] = [];
  for (const r of n.remoteSubnetRoutes) policies.push({ DestinationPrefix: r.prefix, DistributedRouterMacAddress: r.drMac, IsolationId: vsidOf(n), ProviderAddress: r.pa, Type: 'RemoteSubnetRoute' });
  const allocators: Obj[] = isK8s
    ? [
        {
          AdditionalParams: {},
          AllocationOrder: 0,
          CompartmendId: 1,
          Connected: true,
          EndpointPortGuid: n.hostVnicPortGuid,
          Flags: 0,
          Health: v1Health(node, 3600),
          ID: n.hostVnicPortGuid,
          IsPolicy: false,
          MacAddress: node.hostMac,
          PreferredPortFriendlyName: n.hostVnicFriendly,
          State: 3,
          SwitchId: n.switchId,
          Tag: 'Host Vnic',
        },
        { AdditionalParams: {}, AllocationOrder: 1, ExternalNicPortGuid: n.externalPortGuid, Flags: 0, Health: v1Health(node, 3600), ID: n.externalPortGuid, IsPolicy: false, State: 3, Tag: 'External Adapter Info' },
      ]
    : n.infra
      ? []
      : [{ AdditionalParams: {}, AllocationOrder: 0, Flags: 0, Health: v1Health(node, 3600), ID: n.switchId, IsPolicy: false, State: 3, Tag: 'NAT' }];
  const epCount = node.endpoints.filter((e) => e.networkId === n.id).length;
  return {
    ActivityId: n.id.replace(/^.{8}/, 'A1B2C3D4'),
    AdditionalParams: {},
    CurrentEndpointCount: epCount,
    DrMacAddress: n.drMac,
    Extensions: [
      { Id: 'E7C3B2F0-F3C5-48DF-AF2B-10FED6D72E7A', IsEnabled: false, Name: 'Microsoft Windows Filtering Platform' },
      { Id: 'E9B59CFA-2BE1-4B21-828F-B6FBDBDDC017', IsEnabled: isK8s, Name: 'Microsoft Azure VFP Switch Extension' },
      { Id: 'EA24CD6C-D17A-4348-9190-09F0D5BE83DD', IsEnabled: true, Name: 'Microsoft NDIS Capture' },
    ],
    Flags: isK8s ? 8 : 0,
    Health: v1Health(node, 3600),
    ID: n.id,
    IPv6: false,
    LayeredOn: isK8s ? n.switchId : undefined,
    MacPools: [{ EndMacAddress: n.macPool.end, StartMacAddress: n.macPool.start }],
    ManagementIP: n.managementIp,
    MaxConcurrentEndpoints: isK8s ? 16 : 1,
    Name: n.name,
    NetworkAdapterName: n.networkAdapterName,
    Policies: policies,
    Resources: { AdditionalParams: {}, AllocationOrder: 2, Allocators: allocators, CompartmentOperationTime: 0, Flags: 0, Health: v1Health(node, 3600), ID: n.id.replace(/^.{8}/, 'B7C8D9E0'), PortOperationTime: 0, State: 1, SwitchOperationTime: 0, VfpOperationTime: 0, parentId: n.id },
    State: 1,
    Subnets: [
      {
        AdditionalParams: {},
        AddressPrefix: n.subnet,
        GatewayAddress: n.gateway,
        Health: v1Health(node, 3600),
        ID: n.switchId.replace(/^.{8}/, 'C0FFEE00'),
        IpSubnets: [{ AdditionalParams: {}, Flags: 3, Health: v1Health(node, 3600), ID: n.switchId.replace(/^.{8}/, 'C0FFEE01'), IpAddressPrefix: n.subnet, ObjectType: 6, State: 0 }],
        ObjectType: 5,
        Policies: n.type === 'overlay' ? [{ Type: 'VSID', VSID: vsidOf(n) }] : [],
        State: 0,
      },
    ],
    TotalEndpoints: epCount,
    Type: v1Type(n),
    Version: 38654705666,
  };
}

export function networkV2(node: GeneratedNode, n: HnsNetwork): Obj {
  const isK8s = isK8sNet(n);
  const policies: Obj[] = [];
  if (isK8s) policies.push({ Type: 'NetAdapterName', Settings: { NetworkAdapterName: n.networkAdapterName ?? 'Ethernet' } });
  if (n.type === 'overlay' && isK8s) {
    policies.push({ Type: 'ProviderAddress', Settings: { ProviderAddress: n.managementIp } });
    policies.push({ Type: 'DrMacAddress', Settings: { Address: n.drMac } });
    for (const r of n.remoteSubnetRoutes) policies.push({ Type: 'RemoteSubnetRoute', Settings: { DestinationPrefix: r.prefix, IsolationId: vsidOf(n), ProviderAddress: r.pa, DistributedRouterMacAddress: r.drMac } });
  }
  return {
    ID: n.id,
    Name: n.name,
    Type: v2Type(n),
    Policies: policies,
    MacPool: { Ranges: [{ StartMacAddress: n.macPool.start, EndMacAddress: n.macPool.end }] },
    Dns: { ServerList: isK8s ? [node.dnsVip] : [] },
    Ipams: [
      {
        Type: 'Static',
        Subnets: [
          {
            IpAddressPrefix: n.subnet,
            Policies: n.type === 'overlay' ? [{ Type: 'VSID', Settings: { IsolationId: vsidOf(n) } }] : [],
            Routes: [{ NextHop: n.gateway, DestinationPrefix: '0.0.0.0/0' }],
          },
        ],
      },
    ],
    Flags: isK8s ? 8 : 0,
    Health: {
      Extra: {
        Resources: {
          Allocators: n.infra
            ? []
            : isK8s
            ? [
                { Tag: 'Host Vnic', EndpointPortGuid: n.hostVnicPortGuid, SwitchId: n.switchId, PreferredPortFriendlyName: n.hostVnicFriendly, CompartmendId: 1, MacAddress: node.hostMac },
                { Tag: 'External Adapter Info', ExternalNicPortGuid: n.externalPortGuid, SwitchId: n.switchId },
              ]
            : [{ Tag: 'NAT', SwitchId: n.switchId }],
        },
      },
    },
    SchemaVersion: { Major: 2, Minor: 0 },
  };
}

// ---------------------------------------------------------------- endpoints
function policyV1(p: EpPolicy): Obj {
  switch (p.type) {
    case 'OutBoundNAT':
      return { ExceptionList: [...p.exceptions], Type: 'OutBoundNAT' };
    case 'ROUTE':
      return { DestinationPrefix: p.prefix, NeedEncap: p.needEncap, Type: 'ROUTE' };
    case 'PA':
      return { PA: p.pa, Type: 'PA' };
    case 'ACL':
      return { Action: p.action, Direction: p.direction, Priority: p.priority, Protocols: p.protocols, RemoteAddresses: p.remoteAddresses, RemotePorts: p.remotePorts, RuleType: p.ruleType, Type: 'ACL' };
    case 'L2Driver':
      return { Type: 'L2Driver' };
  }
}

function policyV2(p: EpPolicy): Obj {
  switch (p.type) {
    case 'OutBoundNAT':
      return { Type: 'OutBoundNAT', Settings: { Exceptions: [...p.exceptions] } };
    case 'ROUTE':
      return { Type: 'SDNRoute', Settings: { DestinationPrefix: p.prefix, NeedEncap: p.needEncap } };
    case 'PA':
      return { Type: 'ProviderAddress', Settings: { ProviderAddress: p.pa } };
    case 'ACL':
      return { Type: 'ACL', Settings: { Action: p.action, Direction: p.direction, Priority: p.priority, Protocols: p.protocols, RemoteAddresses: p.remoteAddresses, RemotePorts: p.remotePorts, RuleType: p.ruleType } };
    case 'L2Driver':
      return { Type: 'L2Driver', Settings: {} };
  }
}

function v1Policies(node: GeneratedNode, e: HnsEndpoint): Obj[] {
  if (e.policies) return e.policies.map(policyV1);
  if (e.kind === 'remote') return e.pa ? [{ PA: e.pa, Type: 'PA' }] : [];
  if (e.kind === 'host') return [{ Type: 'L2Driver' }];
  const p: Obj[] = [{ ExceptionList: [...e.exceptionList], Type: 'OutBoundNAT' }, { DestinationPrefix: node.serviceCidr, NeedEncap: true, Type: 'ROUTE' }];
  if (node.spec.network === 'l2bridge') p.push({ DestinationPrefix: `${node.nodeIp}/32`, NeedEncap: true, Type: 'ROUTE' }, { Type: 'L2Driver' });
  return p;
}

function v2Policies(node: GeneratedNode, e: HnsEndpoint): Obj[] {
  if (e.policies) return e.policies.map(policyV2);
  if (e.kind === 'remote') return e.pa ? [{ Type: 'ProviderAddress', Settings: { ProviderAddress: e.pa } }] : [];
  if (e.kind === 'host') return [{ Type: 'L2Driver', Settings: {} }];
  const p: Obj[] = [
    { Type: 'OutBoundNAT', Settings: { Exceptions: [...e.exceptionList] } },
    { Type: 'SDNRoute', Settings: { DestinationPrefix: node.serviceCidr, NeedEncap: true } },
  ];
  if (node.spec.network === 'l2bridge') p.push({ Type: 'SDNRoute', Settings: { DestinationPrefix: `${node.nodeIp}/32`, NeedEncap: true } }, { Type: 'L2Driver', Settings: {} });
  return p;
}

function portAllocator(node: GeneratedNode, e: HnsEndpoint, v1: boolean): Obj {
  const sw = node.networks.find((n) => n.id === e.networkId)!.switchId;
  return v1
    ? {
        AdditionalParams: {},
        AllocationOrder: 0,
        Connected: true,
        EndpointNicGuid: e.activityId,
        EndpointPortGuid: e.portGuid,
        Flags: 0,
        Health: v1Health(node, 1800),
        ID: e.portGuid,
        IsPolicy: false,
        MacAddress: e.mac,
        NicFriendlyName: e.name,
        State: 3,
        SwitchId: sw,
        Tag: 'Endpoint Port',
      }
    : { Tag: 'Endpoint Port', EndpointPortGuid: e.portGuid, SwitchId: sw, IsLocal: true, NicFriendlyName: e.name };
}

export function endpointV1(node: GeneratedNode, e: HnsEndpoint): Obj {
  const local = e.kind !== 'remote';
  const dns = e.dns ?? (e.kind === 'pod' ? { servers: [node.dnsVip], search: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'] } : undefined);
  const port = local && !!e.portGuid;
  return {
    ActivityId: e.activityId,
    AdditionalParams: {},
    CreateProcessingStartTime: filetime(node, 1900),
    DNSServerList: dns?.servers.length ? dns.servers.join(',') : undefined,
    DNSSuffix: dns?.servers.length ? dns.search.join(',') : undefined,
    EncapOverhead: epType(node, e) === 'Overlay' ? 50 : undefined,
    GatewayAddress: e.gateway || undefined,
    Health: v1Health(node, 1800),
    ID: e.id,
    IPAddress: e.ip,
    IsRemoteEndpoint: local ? undefined : true,
    MacAddress: e.mac,
    Name: e.name,
    Namespace: e.namespaceId ? { CompartmentGuid: null, ID: e.namespaceId, IsDefault: false } : undefined,
    Policies: v1Policies(node, e),
    PrefixLength: e.prefixLength,
    Resources: {
      AdditionalParams: {},
      AllocationOrder: local ? 4 : 0,
      Allocators: port ? [portAllocator(node, e, true)] : [],
      CompartmentOperationTime: 0,
      Flags: 0,
      Health: v1Health(node, 1800),
      ID: e.activityId,
      PortOperationTime: 0,
      State: 1,
      SwitchOperationTime: 0,
      VfpOperationTime: 0,
      parentId: e.id.replace(/^.{8}/, 'D0D0CAFE'),
    },
    SharedContainers: e.containerId ? [e.containerId] : [],
    StartTime: filetime(node, 1899),
    State: port ? 3 : 1,
    Type: epType(node, e),
    Version: e.version,
    VirtualNetwork: e.networkId,
    VirtualNetworkName: e.networkName,
  };
}

export function endpointV2(node: GeneratedNode, e: HnsEndpoint): Obj {
  const local = e.kind !== 'remote';
  const port = local && !!e.portGuid;
  const dns = e.dns ?? (e.kind === 'pod' ? { servers: [node.dnsVip], search: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'] } : undefined);
  return {
    ID: e.id,
    Name: e.name,
    HostComputeNetwork: e.networkId,
    HostComputeNamespace: e.namespaceId,
    Policies: v2Policies(node, e),
    IpConfigurations: [{ IpAddress: e.ip, PrefixLength: e.prefixLength }],
    Dns: dns?.servers.length ? { Domain: dns.search[0], Search: [...dns.search], ServerList: [...dns.servers] } : undefined,
    Routes: e.gateway ? [{ NextHop: e.gateway, DestinationPrefix: '0.0.0.0/0' }] : undefined,
    MacAddress: e.mac,
    Flags: local ? 0 : 1,
    Health: { Extra: { Resources: { AllocationOrder: local ? 4 : 0, Allocators: port ? [portAllocator(node, e, false)] : [] }, SharedContainers: e.containerId ? [e.containerId] : [] } },
    SchemaVersion: { Major: 2, Minor: 0 },
  };
}

// ---------------------------------------------------------------- namespaces / load balancers
export function namespaceV1(ns: HnsNamespace): Obj {
  return { CompartmentGuid: ns.compartmentGuid, CompartmentId: ns.compartmentId, ID: ns.id, IsDefault: ns.type === 'HostDefault', ResourceList: ns.endpointIds.map((id) => ({ Data: { Id: id }, Type: 'Endpoint' })) };
}

export function namespaceV2(ns: HnsNamespace): Obj {
  return { ID: ns.id, NamespaceId: ns.compartmentId, NamespaceGuid: ns.compartmentGuid, Type: ns.type, Resources: ns.endpointIds.map((id) => ({ Type: 'Endpoint', Data: { ID: id } })), SchemaVersion: { Major: 2, Minor: 0 } };
}

export function policyListV1(node: GeneratedNode, lb: LoadBalancer): Obj {
  return {
    ActivityId: lb.id.replace(/^.{8}/, 'E1E2E3E4'),
    AdditionalParams: {},
    Health: v1Health(node, 900),
    ID: lb.id,
    IsApplied: false,
    Policies: [{ ExternalPort: lb.externalPort, ILB: lb.isIlb, InternalPort: lb.internalPort, IsDSR: false, Protocol: lb.protocol, SourceVIP: lb.sourceVip || undefined, Type: 'ELB', VIPs: [lb.vip] }],
    References: lb.endpointIds.map((id) => `/endpoints/${id}`),
    State: 0,
    Version: 38654705666,
  };
}

export function loadBalancerV2(lb: LoadBalancer): Obj {
  return {
    ID: lb.id,
    HostComputeEndpoints: [...lb.endpointIds],
    SourceVIP: lb.sourceVip || undefined,
    FrontendVIPs: [lb.vip],
    PortMappings: [{ Protocol: lb.protocol, InternalPort: lb.internalPort, ExternalPort: lb.externalPort, Flags: lb.isIlb ? 1 : 0 }],
    Flags: 0,
    SchemaVersion: { Major: 2, Minor: 0 },
  };
}

// ---------------------------------------------------------------- files
export function networkTxt(node: GeneratedNode): string {
  const v2 = node.spec.schema === 2;
  const table = psTable(
    ['Name', 'Type', 'Id', 'AddressPrefix'],
    node.networks.map((n) => [n.name, v2 ? v2Type(n) : v1Type(n), n.id, n.subnet]),
  );
  return table + psJsonPipeline(node.networks.map((n) => (v2 ? networkV2(node, n) : networkV1(node, n))));
}

export function networkDetailedTxt(node: GeneratedNode): string {
  return psJsonPipeline(node.networks.map((n) => networkV2(node, n)));
}

export function endpointTxt(node: GeneratedNode): string {
  const v2 = node.spec.schema === 2;
  const table = psTable(
    ['IpAddress', 'MacAddress', 'IsRemoteEndpoint', 'State'],
    node.endpoints.map((e) => [e.ip, e.mac, e.kind === 'remote' ? true : null, e.kind === 'remote' ? 1 : 3]),
  );
  return table + psJsonPipeline(node.endpoints.map((e) => (v2 ? endpointV2(node, e) : endpointV1(node, e))));
}

export function namespacesTxt(node: GeneratedNode): string {
  const v2 = node.spec.schema === 2;
  const list = psList(
    node.namespaces.map((ns) =>
      v2
        ? [
            ['ID', ns.id],
            ['CompartmentID', ns.compartmentId],
            ['CompartmentGuid', ns.compartmentGuid],
            ['Type', ns.type],
            ['EndpointID', ns.endpointIds],
          ]
        : [
            ['ID', ns.id],
            ['CompartmentId', ns.compartmentId],
            ['CompartmentGuid', ns.compartmentGuid],
            ['IsDefault', ns.type === 'HostDefault'],
            ['EndpointID', ns.endpointIds],
          ],
    ),
  );
  return list + psJsonPipeline(node.namespaces.map((ns) => (v2 ? namespaceV2(ns) : namespaceV1(ns))));
}

/** policy.txt; yields chunks because 4,000 load balancers make a few MB of JSON. */
export function* policyTxt(node: GeneratedNode): Generator<string> {
  const v2 = node.spec.schema === 2;
  const lbs = node.loadBalancers;
  if (lbs.length === 1) {
    yield psJsonPipeline([v2 ? loadBalancerV2(lbs[0]) : policyListV1(node, lbs[0])]);
    return;
  }
  // Same text psJsonPipeline(array) would give, produced one element at a time.
  yield '[\n';
  for (let i = 0; i < lbs.length; i++) {
    const one = psJsonPipeline([v2 ? loadBalancerV2(lbs[i]) : policyListV1(node, lbs[i])]).slice(0, -1);
    yield '    ' + one.replace(/\n(?=[^\n])/g, '\n    ') + (i < lbs.length - 1 ? ',\n' : '\n');
  }
  yield ']\n';
}

export function portPoolAllocsTxt(node: GeneratedNode): string {
  // `(Invoke-HnsRequest -Type portpools -Method GET).PortPoolAllocations | ConvertTo-Json -Depth 10`
  const owner = (node.networks.find((n) => n.type !== 'nat' && !n.infra) ?? node.networks[0]).id;
  return psJsonPipeline([
    { Owner: owner, Protocol: 6, StartingPort: 1024, NumberOfPorts: 64 },
    { Owner: owner, Protocol: 17, StartingPort: 1088, NumberOfPorts: 64 },
  ]);
}
