// The inventory tables: endpoints/pods by IP, services by VIP:port, routes, VFP ports, networks and
// compartments. Display strings only; each row carries the ObjectRef the inspector opens.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { InventoryRow, InventoryTable } from './types.ts';
import { protoName, shortGuid } from './format.ts';
import { k8sNames } from '../k8s/index.ts';

export function buildInventory(m: NodeModel): InventoryTable[] {
  return [endpoints(m), services(m), ports(m), routes(m), networks(m), compartments(m)];
}

function endpoints(m: NodeModel): InventoryTable {
  const joins = new Map(m.joins.endpoints.map((j) => [j.endpointId, j]));
  const netName = new Map((m.networks ?? []).map((n) => [n.id, n.name]));
  const flagsOf = new Map<string, string[]>();
  for (const u of m.joins.unmatched) {
    if (u.kind === 'endpoint-port') flagsOf.set(u.id, [...(flagsOf.get(u.id) ?? []), 'no-port']);
    if (u.kind === 'endpoint-adapter') flagsOf.set(u.id, [...(flagsOf.get(u.id) ?? []), 'no-adapter']);
  }
  const portBlocked = new Set((m.ports ?? []).filter((p) => p.policy?.blocked).map((p) => p.key));
  const rows: InventoryRow[] = (m.endpoints ?? []).map((e) => {
    const j = joins.get(e.id);
    const flags = [...(flagsOf.get(e.id) ?? [])];
    if (j?.portKey && portBlocked.has(j.portKey)) flags.push('blocked');
    return {
      ref: { type: 'endpoint', id: e.id },
      cells: {
        ip: e.ip ?? '',
        pod: k8sNames(m).podLabel(e.ip) ?? '',
        name: e.name,
        mac: e.mac ?? '',
        where: e.isRemote ? `remote${e.providerAddress ? ` via ${e.providerAddress}` : ''}${remoteNode(m, e)}` : 'local',
        network: e.networkName ?? (e.networkId ? (netName.get(e.networkId) ?? shortGuid(e.networkId)) : ''),
        port: j?.portKey ? shortGuid(j.portKey) : '',
        compartment: j?.compartmentId !== undefined ? String(j.compartmentId) : '',
        id: e.id,
      },
      flags,
    };
  });
  rows.sort((a, b) => ipSortKey(a.cells.ip) - ipSortKey(b.cells.ip));
  return {
    key: 'endpoints',
    title: 'Endpoints',
    columns: [
      { key: 'ip', title: 'IP', mono: true },
      ...(k8sNames(m).present ? [{ key: 'pod', title: 'Pod' }] : []),
      { key: 'name', title: 'Name' },
      { key: 'mac', title: 'MAC', mono: true },
      { key: 'where', title: 'Local/remote' },
      { key: 'network', title: 'Network' },
      { key: 'port', title: 'VFP port', mono: true },
      { key: 'compartment', title: 'Compartment' },
      { key: 'id', title: 'Endpoint ID', mono: true },
    ],
    rows,
  };
}

function services(m: NodeModel): InventoryTable {
  const joins = new Map(m.joins.loadBalancers.map((j) => [j.loadBalancerId, j]));
  const ipOf = new Map((m.endpoints ?? []).map((e) => [e.id.toLowerCase(), e.ip ?? e.id]));
  const rows: InventoryRow[] = [];
  for (const lb of m.loadBalancers ?? []) {
    const j = joins.get(lb.id);
    const ports = lb.ports.length ? lb.ports : [undefined];
    for (const p of ports) {
      for (const vip of lb.vips.length ? lb.vips : ['']) {
        rows.push({
          ref: { type: 'loadbalancer', id: lb.id },
          cells: {
            vip: p ? `${vip}:${p.externalPort}/${protoName(p.protocol)}` : vip,
            service: k8sNames(m).lbLabel(lb) ?? '',
            backend: p ? `→ :${p.internalPort}` : '',
            dips: lb.endpointIds.map((id) => ipOf.get(id.toLowerCase()) ?? `${shortGuid(id)}?`).join(', '),
            flags: [lb.dsr ? 'DSR' : '', p?.ilb ? 'ILB' : '', p?.localRoutedVip ? 'LocalRoutedVIP' : '', lb.ipv6 ? 'IPv6' : ''].filter(Boolean).join(' '),
            id: lb.id,
          },
          flags: j?.dangling.length ? ['dangling'] : lb.endpointIds.length === 0 ? ['no-dips'] : [],
        });
      }
    }
  }
  rows.sort((a, b) => ipSortKey(a.cells.vip?.split(':')[0]) - ipSortKey(b.cells.vip?.split(':')[0]) || (a.cells.vip ?? '').localeCompare(b.cells.vip ?? ''));
  return {
    key: 'services',
    title: 'Services',
    columns: [
      { key: 'vip', title: 'VIP:port/proto', mono: true },
      ...(k8sNames(m).present ? [{ key: 'service', title: 'Service' }] : []),
      { key: 'backend', title: 'Target port', mono: true },
      { key: 'dips', title: 'DIPs', mono: true },
      { key: 'flags', title: 'Flags' },
      { key: 'id', title: 'Load balancer ID', mono: true },
    ],
    rows,
  };
}

/** ` (node aks-…)`: the node a remote endpoint's pod runs on, else the node its provider address is. */
function remoteNode(m: NodeModel, e: { ip?: string; providerAddress?: string }): string {
  const names = k8sNames(m);
  const n = names.podByIp(e.ip)?.nodeName ?? names.nodeLabel(e.providerAddress);
  return n ? ` (node ${n})` : '';
}

function ports(m: NodeModel): InventoryTable {
  const epIp = new Map((m.endpoints ?? []).map((e) => [e.id, e.ip ?? '']));
  const rows: InventoryRow[] = (m.ports ?? []).map((p) => ({
    ref: { type: 'port', id: p.key },
    cells: {
      name: p.name,
      friendly: p.friendlyName ?? '',
      role: p.role,
      mac: p.mac ?? '',
      endpoint: p.endpointId ? (epIp.get(p.endpointId) || shortGuid(p.endpointId)) : '',
      layers: p.policy ? String(p.policy.layers) : '',
      rules: p.policy ? String(p.policy.rules) : '',
      state: p.policy?.blocked ? 'BLOCKED' : p.policy ? 'ok' : '',
    },
    flags: p.policy?.blocked ? ['blocked'] : [],
  }));
  return {
    key: 'ports',
    title: 'VFP ports',
    columns: [
      { key: 'name', title: 'Port name', mono: true },
      { key: 'friendly', title: 'Friendly name' },
      { key: 'role', title: 'Role' },
      { key: 'mac', title: 'MAC', mono: true },
      { key: 'endpoint', title: 'Endpoint', mono: true },
      { key: 'layers', title: 'Layers' },
      { key: 'rules', title: 'Rules' },
      { key: 'state', title: 'State' },
    ],
    rows,
  };
}

function routes(m: NodeModel): InventoryTable {
  const rows: InventoryRow[] = [];
  const r = m.routes;
  r?.ipv4Active.forEach((x, i) =>
    rows.push({
      ref: { type: 'route', id: `v4a/${i}` },
      cells: { table: 'route print (IPv4 active)', destination: `${x.destination}${x.prefixLength !== undefined ? `/${x.prefixLength}` : ` mask ${x.netmask}`}`, gateway: x.gateway, interface: x.interface ?? '', metric: x.metricText },
    }),
  );
  r?.ipv4Persistent.forEach((x, i) =>
    rows.push({
      ref: { type: 'route', id: `v4p/${i}` },
      cells: { table: 'route print (IPv4 persistent)', destination: `${x.destination}${x.prefixLength !== undefined ? `/${x.prefixLength}` : ` mask ${x.netmask}`}`, gateway: x.gateway, interface: x.interface ?? '', metric: x.metricText },
    }),
  );
  r?.netRoutes.forEach((x, i) =>
    rows.push({
      ref: { type: 'route', id: `net/${i}` },
      cells: { table: 'Get-NetRoute', destination: x.destinationPrefix, gateway: x.nextHop, interface: `ifIndex ${x.ifIndex}`, metric: [x.routeMetric, x.ifMetric].filter((v) => v !== undefined).join(' + ') },
    }),
  );
  // A next hop that is a cluster node (host-gw, BGP) is named after it; else a destination that is a
  // Node's spec.podCIDR says whose pods it reaches.
  const names = k8sNames(m);
  for (const row of rows) {
    const n = names.nodeLabel(row.cells.gateway);
    row.cells.node = n ?? names.cidrLabel(row.cells.destination) ?? '';
  }
  return {
    key: 'routes',
    title: 'Routes',
    columns: [
      { key: 'destination', title: 'Destination', mono: true },
      { key: 'gateway', title: 'Gateway / next hop', mono: true },
      ...(names.present && rows.some((r) => r.cells.node) ? [{ key: 'node', title: 'Node' }] : []),
      { key: 'interface', title: 'Interface', mono: true },
      { key: 'metric', title: 'Metric' },
      { key: 'table', title: 'Source' },
    ],
    rows,
  };
}

function networks(m: NodeModel): InventoryTable {
  return {
    key: 'networks',
    title: 'Networks',
    columns: [
      { key: 'name', title: 'Name' },
      { key: 'type', title: 'Type' },
      { key: 'subnets', title: 'Subnets', mono: true },
      { key: 'mgmt', title: 'Management IP', mono: true },
      { key: 'id', title: 'ID', mono: true },
    ],
    rows: (m.networks ?? []).map((n) => ({
      ref: { type: 'network', id: n.id },
      cells: { name: n.name, type: n.type, subnets: n.subnets.map((s) => `${s.prefix}${s.gateway ? ` gw ${s.gateway}` : ''}`).join(', '), mgmt: n.managementIp ?? '', id: n.id },
    })),
  };
}

function compartments(m: NodeModel): InventoryTable {
  return {
    key: 'compartments',
    title: 'Compartments',
    columns: [
      { key: 'id', title: 'Compartment' },
      { key: 'adapters', title: 'Adapters' },
      { key: 'ips', title: 'IPv4', mono: true },
      { key: 'gateways', title: 'Gateway', mono: true },
      { key: 'dns', title: 'DNS servers', mono: true },
    ],
    rows: (m.ip?.compartments ?? []).map((c) => ({
      ref: { type: 'compartment', id: String(c.id) },
      cells: {
        id: String(c.id),
        adapters: c.adapters.map((a) => a.name).join(', '),
        ips: c.adapters.flatMap((a) => a.ipv4.map((x) => x.address)).join(', '),
        gateways: [...new Set(c.adapters.flatMap((a) => a.gateways))].join(', '),
        dns: [...new Set(c.adapters.flatMap((a) => a.dnsServers))].join(', '),
      },
    })),
  };
}

function ipSortKey(ip: string | undefined): number {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)/.exec(ip ?? '');
  if (!m) return Number.MAX_SAFE_INTEGER;
  return m.slice(1, 5).reduce((n, octet) => n * 256 + Number(octet), 0);
}
