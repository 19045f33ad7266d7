// Builds minimal objects from the PowerShell table that precedes the JSON (collectlogs' `Select`
// columns), used only for objects the JSON did not deliver (truncated or missing JSON).
// Table cells are lossy: arrays render as `{a, b}` and long values end in `...`.

import type { IssueSink } from '../types.ts';
import type { HnsEndpoint, HnsKind, HnsNamespace, HnsNetwork } from './types.ts';
import { asBool, asNum, normGuid, normMac } from './access.ts';
import type { PsRow } from './ps-table.ts';

function cell(row: Record<string, string>, ...names: string[]): string | undefined {
  const lower = names.map((n) => n.toLowerCase());
  for (const [k, v] of Object.entries(row)) {
    if (lower.includes(k.toLowerCase()) && v !== '' && !v.endsWith('...')) return v;
  }
  return undefined;
}

/** `{10.0.0.5, fd00::5}` → ['10.0.0.5', 'fd00::5']; a plain cell → [cell]. */
function cellList(v: string | undefined): string[] {
  if (v === undefined) return [];
  const m = /^\{(.*)\}$/.exec(v.trim());
  return (m?.[1] ?? v).split(/,\s*/).map((x) => x.trim()).filter((x) => x !== '' && !x.endsWith('...'));
}

export function guessTableKind(rows: PsRow[]): HnsKind {
  const keys = new Set(rows.flatMap((r) => Object.keys(r.cells).map((k) => k.toLowerCase())));
  if (keys.has('compartmentid') || keys.has('compartmentguid') || keys.has('endpointid')) return 'namespace';
  if (keys.has('ipaddress') || keys.has('macaddress') || keys.has('isremoteendpoint')) return 'endpoint';
  if (keys.has('addressprefix') || (keys.has('type') && keys.has('name'))) return 'network';
  return 'unknown';
}

export interface TableObjects {
  networks: HnsNetwork[];
  endpoints: HnsEndpoint[];
  namespaces: HnsNamespace[];
}

export function objectsFromTable(rows: PsRow[], kind: HnsKind, sink: IssueSink, have: TableObjects): TableObjects {
  const out: TableObjects = { networks: [], endpoints: [], namespaces: [] };
  for (const [rowIdx, { cells, line }] of rows.entries()) {
    const src = sink.ref(line);
    if (kind === 'network') {
      const id = normGuid(cell(cells, 'Id', 'ID'));
      if (!id || have.networks.some((n) => n.id === id)) continue;
      out.networks.push({
        id,
        name: cell(cells, 'Name') ?? '',
        type: (cell(cells, 'Type') ?? '').toLowerCase(),
        schema: 2,
        subnets: cellList(cell(cells, 'AddressPrefix')).map((prefix) => ({ prefix })),
        remoteSubnetRoutes: [],
        dnsServers: [],
        policies: [],
        fromTable: true,
        raw: cells,
        src,
      });
    } else if (kind === 'endpoint') {
      const ips = cellList(cell(cells, 'IpAddress', 'IPAddress'));
      const ip = ips.find((x) => !x.includes(':'));
      const mac = normMac(cell(cells, 'MacAddress'));
      const id = normGuid(cell(cells, 'Id', 'ID')) ?? '';
      if (!ip && !mac && !id) continue;
      // The table and the JSON come from two runs of the same Get-HnsEndpoint pipeline, in the same
      // order: a row at the position of a cut JSON object describes that object even when the cut
      // came before its address.
      const atSameIndex = have.endpoints[rowIdx];
      const positional = atSameIndex?.partial && (!atSameIndex.ip || atSameIndex.ip === ip) ? atSameIndex : undefined;
      const dup = positional ?? have.endpoints.find((e) => (id && e.id === id) || (ip && e.ip === ip && (!mac || !e.mac || e.mac === mac)));
      if (dup) {
        // A JSON object cut by the end of the file: the table row still knows what came after the cut.
        if (dup.partial) {
          dup.ip ??= ip;
          dup.mac ??= mac;
          const remote = asBool(cell(cells, 'IsRemoteEndpoint'));
          if (remote !== undefined) dup.isRemote = remote;
          const st = cell(cells, 'State');
          if (st !== undefined) dup.state ??= asNum(st) ?? st;
        }
        continue;
      }
      const ep: HnsEndpoint = {
        id,
        name: cell(cells, 'Name') ?? '',
        dnsServers: [],
        isRemote: asBool(cell(cells, 'IsRemoteEndpoint')) ?? false,
        outboundNat: [],
        routes: [],
        policies: [],
        sharedContainers: [],
        schema: 2,
        fromTable: true,
        raw: cells,
        src,
      };
      if (ip) ep.ip = ip;
      const ip6 = ips.find((x) => x.includes(':'));
      if (ip6) ep.ipv6 = ip6;
      if (mac) ep.mac = mac;
      ep.sharedContainers = cellList(cell(cells, 'SharedContainers'));
      const gw = cell(cells, 'GatewayAddress');
      if (gw) ep.gateway = gw;
      const netName = cell(cells, 'VirtualNetworkName');
      if (netName) ep.networkName = netName;
      const netId = normGuid(cell(cells, 'VirtualNetwork'));
      if (netId) ep.networkId = netId;
      const dns = cell(cells, 'DNSServerList');
      if (dns) ep.dnsServers = cellList(dns);
      const pl = asNum(cell(cells, 'PrefixLength'));
      if (pl !== undefined) ep.prefixLength = pl;
      const t = cell(cells, 'Type');
      if (t) ep.type = t.toLowerCase();
      const st = cell(cells, 'State');
      if (st !== undefined) ep.state = asNum(st) ?? st;
      out.endpoints.push(ep);
    } else if (kind === 'namespace') {
      const id = normGuid(cell(cells, 'ID', 'Id'));
      if (!id || have.namespaces.some((n) => n.id === id)) continue;
      const ns: HnsNamespace = {
        id,
        endpointIds: cellList(cell(cells, 'EndpointID', 'EndpointIds')).map((x) => normGuid(x)!),
        containerIds: [],
        fromTable: true,
        raw: cells,
        src,
      };
      const comp = asNum(cell(cells, 'CompartmentID', 'CompartmentId'));
      if (comp !== undefined) ns.compartmentId = comp;
      const cg = normGuid(cell(cells, 'CompartmentGuid'));
      if (cg) ns.compartmentGuid = cg;
      const t = cell(cells, 'Type');
      if (t) ns.type = t;
      const def = asBool(cell(cells, 'IsDefault'));
      if (def !== undefined) ns.isDefault = def;
      out.namespaces.push(ns);
    }
  }
  return out;
}
