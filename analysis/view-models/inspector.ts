// The inspector: every field of the selected object, the objects joined to it, what is wrong with
// it, its VFP policy (materialized on demand) and the source line.
import type { NodeModel, VfpPortRef } from '../../parsers/model/types.ts';
import type { InspectorField, InspectorView, ObjectRef } from './types.ts';
import { policyView } from './policy-view.ts';
import { plural, protoName, shortGuid } from './format.ts';
import { k8sNames } from '../k8s/index.ts';

const RAW_LIMIT = 200_000;

export function buildInspector(m: NodeModel, ref: ObjectRef): InspectorView | undefined {
  switch (ref.type) {
    case 'endpoint':
      return endpointView(m, ref);
    case 'port':
      return portView(m, ref);
    case 'loadbalancer':
      return lbView(m, ref);
    case 'network':
      return networkView(m, ref);
    case 'compartment':
      return compartmentView(m, ref);
    case 'adapter':
      return adapterView(m, ref);
    case 'namespace':
      return namespaceView(m, ref);
    case 'route':
      return routeView(m, ref);
    case 'remote-subnet':
      return remoteSubnetView(m, ref);
    case 'file':
      return fileView(m, ref);
    default:
      return undefined;
  }
}

const f = (label: string, value: unknown, extra: Partial<InspectorField> = {}): InspectorField | undefined =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
    ? undefined
    : { label, value: Array.isArray(value) ? value.join(', ') : String(value), ...extra };
const fields = (...xs: (InspectorField | undefined)[]) => xs.filter((x): x is InspectorField => !!x);
const raw = (o: unknown) => {
  if (o === undefined) return undefined;
  const s = JSON.stringify(o, null, 2);
  return s.length > RAW_LIMIT ? `${s.slice(0, RAW_LIMIT)}\n… (${s.length - RAW_LIMIT} more characters)` : s;
};

function portPolicy(m: NodeModel, port: VfpPortRef | undefined) {
  if (!port?.policy || !m.vfp) return undefined;
  const p = m.vfp.getPolicy(port.key);
  return p ? policyView(p) : undefined;
}

function endpointView(m: NodeModel, ref: ObjectRef): InspectorView | undefined {
  const e = m.endpoints?.find((x) => x.id === ref.id);
  if (!e) return undefined;
  const j = m.joins.endpoints.find((x) => x.endpointId === e.id);
  const port = j?.portKey ? m.ports?.find((p) => p.key === j.portKey) : undefined;
  const net = m.networks?.find((n) => n.id === e.networkId || (!!e.networkName && n.name === e.networkName));
  const related: InspectorView['related'] = [];
  if (net) related.push({ label: 'network', ref: { type: 'network', id: net.id }, text: `${net.name} (${net.type})` });
  if (port) related.push({ label: 'VFP port', ref: { type: 'port', id: port.key }, text: `${port.name}${port.policy ? ` — ${plural(port.policy.rules, 'rule')}` : ''}` });
  if (j?.compartmentId !== undefined) {
    related.push({ label: 'compartment', ref: { type: 'compartment', id: String(j.compartmentId) }, text: `Compartment ${j.compartmentId}` });
    if (j.adapterName) related.push({ label: 'adapter', ref: { type: 'adapter', id: `${j.compartmentId}/${j.adapterName}` }, text: `${j.adapterName} (matched by ${j.adapterVia})` });
  }
  for (const lb of m.loadBalancers ?? []) {
    if (lb.endpointIds.some((id) => id.toLowerCase() === e.id)) related.push({ label: 'backend of', ref: { type: 'loadbalancer', id: lb.id }, text: lbLabel(lb) });
  }
  const ns = m.namespaces?.find((n) => n.endpointIds.some((id) => id.toLowerCase() === e.id));
  if (ns) related.push({ label: 'namespace', ref: { type: 'namespace', id: ns.id }, text: `namespace ${shortGuid(ns.id)}${ns.compartmentId !== undefined ? `, compartment ${ns.compartmentId}` : ''}` });
  const notes: InspectorView['notes'] = m.joins.unmatched.filter((u) => u.id === e.id).map((u) => ({ severity: 'warning' as const, message: u.message, src: u.src }));
  if (port?.policy?.blocked) notes.push({ severity: 'error', message: `VFP port ${port.name} is blocked (get-port-state Blocked : TRUE)`, src: port.policy.src });
  return {
    ref,
    title: e.ip ?? e.name,
    subtitle: `${e.isRemote ? 'remote' : 'local'} HNS endpoint · schema v${e.schema}`,
    fields: fields(
      f('Kubernetes pod', k8sNames(m).podLabel(e.ip)),
      f('Kubernetes node', k8sNames(m).podByIp(e.ip)?.nodeName ?? k8sNames(m).nodeLabel(e.ip)),
      f('ID', e.id, { mono: true }),
      f('Name', e.name, { mono: true }),
      f('IP address', e.ip ? `${e.ip}${e.prefixLength !== undefined ? `/${e.prefixLength}` : ''}` : undefined, { mono: true }),
      f('IPv6', e.ipv6, { mono: true }),
      f('MAC', e.mac, { mono: true }),
      f('Gateway', e.gateway, { mono: true }),
      f('DNS servers', e.dnsServers, { mono: true }),
      f('DNS suffix', e.dnsSuffix),
      f('Network', e.networkName ?? e.networkId, net ? { link: { type: 'network', id: net.id } } : {}),
      f('Type', e.type),
      f('State', e.state),
      f('Remote', e.isRemote ? 'yes' : 'no'),
      f('Provider address', e.providerAddress ? `${e.providerAddress}${k8sNames(m).nodeLabel(e.providerAddress) ? ` (node ${k8sNames(m).nodeLabel(e.providerAddress)})` : ''}` : undefined, { mono: true }),
      f('VFP port name', e.portName, { mono: true }),
      f('OutboundNAT exceptions', e.outboundNat.flatMap((o) => o.exceptions), { mono: true }),
      f('OutboundNAT VIP', e.outboundNat.map((o) => o.vip).filter(Boolean)),
      f('Routes', e.routes.map((r) => `${r.destinationPrefix}${r.nextHop ? ` via ${r.nextHop}` : ''}${r.needEncap ? ' (encap)' : ''}`), { mono: true }),
      f('Port mappings', e.portMappings?.map((p) => `${p.externalPort}→${p.internalPort}/${protoName(p.protocol)}`)),
      f('Policies', e.policies.map((p) => p.type)),
      f('Shared containers', e.sharedContainers.map((c) => c.slice(0, 12))),
    ),
    related,
    notes,
    policy: portPolicy(m, port),
    src: e.src,
    raw: raw(e.raw),
  };
}

function lbLabel(lb: { vips: string[]; ports: { externalPort: number; protocol: number }[]; id: string }): string {
  const v = lb.vips.flatMap((vip) => (lb.ports.length ? lb.ports.map((p) => `${vip}:${p.externalPort}/${protoName(p.protocol)}`) : [vip]));
  return v.join(', ') || shortGuid(lb.id);
}

function portView(m: NodeModel, ref: ObjectRef): InspectorView | undefined {
  const p = m.ports?.find((x) => x.key === ref.id);
  if (!p) return undefined;
  const ep = p.endpointId ? m.endpoints?.find((e) => e.id === p.endpointId) : undefined;
  const sp = p.switchPort;
  const related: InspectorView['related'] = [];
  if (ep) related.push({ label: 'endpoint', ref: { type: 'endpoint', id: ep.id }, text: `${ep.ip ?? ''} ${ep.name}` });
  const notes: InspectorView['notes'] = m.joins.unmatched.filter((u) => u.id === p.name).map((u) => ({ severity: 'warning' as const, message: u.message, src: u.src }));
  if (p.policy?.blocked) notes.push({ severity: 'error', message: 'the port is blocked (get-port-state Blocked : TRUE)', src: p.policy.src });
  if (!p.policy && m.vfp) notes.push({ severity: 'info', message: 'no rules of this port were dumped in the bundle' });
  const counters = sp?.counters ? Object.entries(sp.counters.out).map(([k, v]) => `out ${k}: ${v}`).concat(Object.entries(sp.counters.in).map(([k, v]) => `in ${k}: ${v}`)) : [];
  return {
    ref,
    title: p.friendlyName ? `${p.friendlyName}` : shortGuid(p.name),
    subtitle: `VFP port · ${p.role}`,
    fields: fields(
      f('Port name', p.name, { mono: true }),
      f('Friendly name', p.friendlyName),
      f('Role', p.role),
      f('MAC', p.mac, { mono: true }),
      f('Switch', sp?.switchFriendlyName ?? sp?.switchName),
      f('PortId', sp?.portId),
      f('Port type', sp?.portType),
      f('NIC', sp?.nicFriendlyName ?? sp?.nicName),
      f('VM', sp?.vmName),
      f('MTU', sp?.mtu),
      f('State', sp?.states),
      f('Layers / groups / rules', p.policy ? `${p.policy.layers} / ${p.policy.groups} / ${p.policy.rules}` : undefined),
      f('Counters', counters.slice(0, 40)),
    ),
    related,
    notes,
    policy: portPolicy(m, p),
    src: p.switchPort?.src ?? p.src,
  };
}

function lbView(m: NodeModel, ref: ObjectRef): InspectorView | undefined {
  const lb = m.loadBalancers?.find((x) => x.id === ref.id);
  if (!lb) return undefined;
  const j = m.joins.loadBalancers.find((x) => x.loadBalancerId === lb.id);
  const related: InspectorView['related'] = [];
  for (const id of lb.endpointIds) {
    const e = m.endpoints?.find((x) => x.id === id.toLowerCase());
    if (e) related.push({ label: 'DIP', ref: { type: 'endpoint', id: e.id }, text: `${e.ip ?? ''} ${e.isRemote ? '(remote)' : '(local)'} ${e.name}` });
  }
  const notes: InspectorView['notes'] = (j?.dangling ?? []).map((d) => ({ severity: 'error' as const, message: `references endpoint ${d}, which is not in the bundle (stale DIP)`, src: lb.src }));
  if (m.endpoints && lb.endpointIds.length === 0) notes.push({ severity: 'warning', message: 'has no backend endpoints', src: lb.src });
  return {
    ref,
    title: lbLabel(lb),
    subtitle: `HNS load balancer · schema v${lb.schema}`,
    fields: fields(
      f('Kubernetes service', (() => {
        const r = k8sNames(m).refOfLb(lb);
        return r ? `${r.namespace}/${r.name}${r.type ? ` (${r.type}${r.port ? `, ${r.port}` : ''})` : ''}` : undefined;
      })()),
      f('ID', lb.id, { mono: true }),
      f('VIPs', lb.vips, { mono: true }),
      f('Ports', lb.ports.map((p) => `${p.externalPort} → ${p.internalPort}/${protoName(p.protocol)}${p.ilb ? ' ILB' : ''}${p.localRoutedVip ? ' LocalRoutedVIP' : ''}`), { mono: true }),
      f('DSR', lb.dsr ? 'yes' : 'no'),
      f('IPv6', lb.ipv6 ? 'yes' : undefined),
      f('Source VIP', lb.sourceVip, { mono: true }),
      f('DIP endpoints', lb.endpointIds, { mono: true }),
      f('State', lb.state),
      f('Applied', lb.isApplied === undefined ? undefined : String(lb.isApplied)),
      f('Network', lb.networkId, { mono: true }),
    ),
    related,
    notes,
    src: lb.src,
    raw: raw(lb.raw),
  };
}

function networkView(m: NodeModel, ref: ObjectRef): InspectorView | undefined {
  const n = m.networks?.find((x) => x.id === ref.id);
  if (!n) return undefined;
  const eps = (m.endpoints ?? []).filter((e) => e.networkId === n.id || e.networkName === n.name);
  const related: InspectorView['related'] = eps.slice(0, 300).map((e) => ({ label: e.isRemote ? 'remote endpoint' : 'endpoint', ref: { type: 'endpoint', id: e.id }, text: `${e.ip ?? ''} ${e.name}` }));
  for (const r of n.remoteSubnetRoutes) related.push({ label: 'remote subnet', ref: { type: 'remote-subnet', id: r.destinationPrefix }, text: `${r.destinationPrefix} via PA ${r.providerAddress}` });
  return {
    ref,
    title: n.name,
    subtitle: `HNS network · ${n.type} · schema v${n.schema}`,
    fields: fields(
      f('ID', n.id, { mono: true }),
      f('Type', n.type),
      f('Subnets', n.subnets.map((s) => `${s.prefix}${s.gateway ? ` gw ${s.gateway}` : ''}${s.vsid !== undefined ? ` VSID ${s.vsid}` : ''}`), { mono: true }),
      f('Management IP', n.managementIp, { mono: true }),
      f('Adapter', n.networkAdapterName),
      f('Source MAC', n.sourceMac, { mono: true }),
      f('DR MAC', n.drMac, { mono: true }),
      f('Provider address', n.providerAddress, { mono: true }),
      f('Remote subnet routes', n.remoteSubnetRoutes.map((r) => `${r.destinationPrefix} → ${r.providerAddress}${r.isolationId !== undefined ? ` VNI ${r.isolationId}` : ''}`), { mono: true }),
      f('DNS servers', n.dnsServers, { mono: true }),
      f('Host vNIC port', n.hostVnicPortGuid, { mono: true, link: n.hostVnicPortGuid ? { type: 'port', id: n.hostVnicPortGuid.toLowerCase() } : undefined }),
      f('External port', n.externalPortGuid, { mono: true, link: n.externalPortGuid ? { type: 'port', id: n.externalPortGuid.toLowerCase() } : undefined }),
      f('Policies', n.policies.map((p) => p.type)),
      f('Endpoints', `${eps.length} (${eps.filter((e) => !e.isRemote).length} local)`),
    ),
    related,
    notes: [],
    src: n.src,
    raw: raw(n.raw),
  };
}

function compartmentView(m: NodeModel, ref: ObjectRef): InspectorView | undefined {
  const c = m.ip?.compartments.find((x) => String(x.id) === ref.id);
  if (!c) return undefined;
  const related: InspectorView['related'] = c.adapters.map((a) => ({ label: 'adapter', ref: { type: 'adapter', id: `${c.id}/${a.name}` }, text: `${a.name} ${a.ipv4.map((x) => x.address).join(', ')}` }));
  for (const j of m.joins.endpoints.filter((x) => x.compartmentId === c.id)) {
    const e = m.endpoints?.find((x) => x.id === j.endpointId);
    if (e) related.push({ label: 'endpoint', ref: { type: 'endpoint', id: e.id }, text: `${e.ip ?? ''} ${e.name}` });
  }
  return {
    ref,
    title: `Compartment ${c.id}`,
    subtitle: c.active ? 'network compartment (ACTIVE)' : 'network compartment',
    fields: fields(f('Host name', c.hostName), f('Node type', c.nodeType), f('IP routing', c.ipRoutingEnabled === undefined ? undefined : c.ipRoutingEnabled ? 'yes' : 'no'), f('DNS suffix search list', c.dnsSuffixSearchList), f('Adapters', c.adapters.length)),
    related,
    notes: [],
    src: c.src,
  };
}

function adapterView(m: NodeModel, ref: ObjectRef): InspectorView | undefined {
  const slash = ref.id.indexOf('/');
  const cid = ref.id.slice(0, slash);
  const name = ref.id.slice(slash + 1);
  const c = m.ip?.compartments.find((x) => String(x.id) === cid);
  const a = c?.adapters.find((x) => x.name === name);
  if (!c || !a) return undefined;
  const j = m.joins.endpoints.find((x) => x.compartmentId === c.id && x.adapterName === a.name);
  const related: InspectorView['related'] = [{ label: 'compartment', ref: { type: 'compartment', id: String(c.id) }, text: `Compartment ${c.id}` }];
  if (j) related.push({ label: 'endpoint', ref: { type: 'endpoint', id: j.endpointId }, text: j.endpointId });
  const notes: InspectorView['notes'] = [];
  for (const x of a.ipv4) if (x.apipa) notes.push({ severity: 'warning', message: `${x.address} is an APIPA address: Windows assigned it itself (no address configured or DHCP unanswered)`, src: x.src });
  return {
    ref,
    title: a.name,
    subtitle: `${a.kind} adapter · compartment ${c.id}`,
    fields: fields(
      f('Description', a.description),
      f('MAC', a.mac, { mono: true }),
      f('IPv4', a.ipv4.map((x) => `${x.address}${x.prefixLength !== undefined ? `/${x.prefixLength}` : x.mask ? ` mask ${x.mask}` : ''}${x.status ? ` (${x.status})` : ''}`), { mono: true }),
      f('IPv6', a.ipv6.map((x) => `${x.address}${x.zone ? `%${x.zone}` : ''}`), { mono: true }),
      f('Default gateway', a.gateways, { mono: true }),
      f('DNS servers', a.dnsServers, { mono: true }),
      f('DNS suffix', a.dnsSuffix),
      f('DHCP', a.dhcpEnabled === undefined ? undefined : a.dhcpEnabled ? 'yes' : 'no'),
      f('Media state', a.mediaState),
      ...Object.entries(a.extra).slice(0, 20).map(([k, v]) => f(k, v)),
    ),
    related,
    notes,
    src: a.src,
  };
}

function namespaceView(m: NodeModel, ref: ObjectRef): InspectorView | undefined {
  const n = m.namespaces?.find((x) => x.id === ref.id);
  if (!n) return undefined;
  return {
    ref,
    title: `Namespace ${shortGuid(n.id)}`,
    subtitle: 'HNS namespace',
    fields: fields(f('ID', n.id, { mono: true }), f('Compartment', n.compartmentId), f('Compartment GUID', n.compartmentGuid, { mono: true }), f('Type', n.type), f('Default', n.isDefault === undefined ? undefined : String(n.isDefault)), f('Containers', n.containerIds.map((c) => c.slice(0, 12)))),
    related: n.endpointIds.map((id) => ({ label: 'endpoint', ref: { type: 'endpoint', id: id.toLowerCase() }, text: id })),
    notes: [],
    src: n.src,
    raw: raw(n.raw),
  };
}

function routeView(m: NodeModel, ref: ObjectRef): InspectorView | undefined {
  const [table, idx] = ref.id.split('/');
  const r = m.routes;
  if (!r) return undefined;
  if (table === 'net') {
    const x = r.netRoutes[Number(idx)];
    if (!x) return undefined;
    return { ref, title: `${x.destinationPrefix} → ${x.nextHop}`, subtitle: 'Get-NetRoute', fields: fields(f('Destination', x.destinationPrefix, { mono: true }), f('Next hop', x.nextHop, { mono: true }), f('ifIndex', x.ifIndex), f('Route metric', x.routeMetric), f('Interface metric', x.ifMetric), f('Policy store', x.policyStore)), related: [], notes: [], src: x.src };
  }
  const x = (table === 'v4p' ? r.ipv4Persistent : r.ipv4Active)[Number(idx)];
  if (!x) return undefined;
  return {
    ref,
    title: `${x.destination}${x.prefixLength !== undefined ? `/${x.prefixLength}` : ''} → ${x.gateway}`,
    subtitle: table === 'v4p' ? 'route print · persistent' : 'route print · active',
    fields: fields(f('Destination', x.destination, { mono: true }), f('Netmask', x.netmask, { mono: true }), f('Gateway', x.gateway, { mono: true }), f('Interface', x.interface, { mono: true }), f('Metric', x.metricText)),
    related: [],
    notes: [],
    src: x.src,
  };
}

function remoteSubnetView(m: NodeModel, ref: ObjectRef): InspectorView | undefined {
  const rsr = (m.networks ?? []).flatMap((n) => n.remoteSubnetRoutes.map((r) => ({ n, r }))).filter((x) => x.r.destinationPrefix === ref.id);
  const routes = (m.routes?.ipv4Active ?? []).filter((x) => x.prefixLength !== undefined && `${x.destination}/${x.prefixLength}` === ref.id);
  if (!rsr.length && !routes.length) return { ref, title: ref.id, subtitle: 'remote subnet', fields: [], related: [], notes: [{ severity: 'info', message: 'no HNS policy or route names this subnet' }] };
  return {
    ref,
    title: ref.id,
    subtitle: 'remote pod subnet',
    fields: fields(
      ...rsr.map(({ n, r }) => f(`RemoteSubnetRoute (${n.name})`, `PA ${r.providerAddress}${r.isolationId !== undefined ? `, VNI ${r.isolationId}` : ''}${r.drMac ? `, DR MAC ${r.drMac}` : ''}`, { mono: true })),
      ...routes.map((x) => f('Route', `via ${x.gateway} on ${x.interface ?? '?'} metric ${x.metricText}`, { mono: true })),
    ),
    related: rsr.map(({ n }) => ({ label: 'network', ref: { type: 'network', id: n.id } as ObjectRef, text: n.name })),
    notes: [],
    src: rsr[0]?.n.src ?? routes[0]?.src,
  };
}

function fileView(m: NodeModel, ref: ObjectRef): InspectorView | undefined {
  const file = m.files.find((x) => x.name === ref.id);
  if (!file) return undefined;
  return {
    ref,
    title: file.name,
    subtitle: `bundle file · ${file.kind}`,
    fields: fields(f('Size', plural(file.size, 'byte')), f('Encoding', file.encoding), f('Line endings', file.lineEnding), f('Read into the model', file.used ? 'yes' : 'no'), f('Note', file.note)),
    related: [],
    notes: file.issues.slice(0, 300).map((i) => ({ severity: i.severity, message: i.message, src: { file: file.name, line: i.line } })),
  };
}
