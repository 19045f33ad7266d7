// Joins the parsed files into one NodeModel: picks the best source for each kind of object, joins
// endpoints to VFP ports and compartment adapters, and load balancers to endpoints. Joins that fail
// are kept as `unmatched` entries for the user to see, never dropped.
import type { ParsedFile } from '../bundle/parsed-file.ts';
import type { HnsEndpoint, HnsFile, HnsLoadBalancer, HnsNamespace, HnsNetwork } from '../hns/index.ts';
import type { Hnsdiag } from '../hnsdiag/index.ts';
import { materializeVfpPortTail } from '../vfp/port-tail.ts';
import { materializeVfpPort, type VfpIndex, type VfpPortPolicy } from '../vfp/index.ts';
import type { SourceRef } from '../types.ts';
import type { BundleFileInfo, Joins, NodeMeta, NodeModel, VfpPortRef, VfpStore } from './types.ts';
import { hnsdiagToObjects } from './from-hnsdiag.ts';
import { collectSideInputs } from './side-inputs.ts';
import { evidenceText } from './evidence-text.ts';
import { fileYield } from '../bundle/expectations.ts';
import { parseNetshPortRanges } from '../net/netsh-ports.ts';

type Role = 'networks' | 'endpoints' | 'loadBalancers' | 'namespaces';

const CANONICAL: Record<Role, RegExp> = {
  networks: /(^|\/)network\.txt$/i,
  endpoints: /(^|\/)endpoint\.txt$/i,
  loadBalancers: /(^|\/)policy\.txt$/i,
  namespaces: /(^|\/)namespaces\.txt$/i,
};
const ROLE_KIND: Record<Role, string> = { networks: 'network', endpoints: 'endpoint', loadBalancers: 'policy', namespaces: 'namespaces' };

interface Candidate<T> {
  file: ParsedFile;
  rank: number;
  items: T[];
}

export function assembleModel(parsed: ParsedFile[], source: NodeModel['source']): NodeModel {
  const info = new Map<ParsedFile, BundleFileInfo>();
  const files: BundleFileInfo[] = parsed.map((p) => {
    const f: BundleFileInfo = { name: p.name, size: p.size, kind: p.kind, encoding: p.encoding, lineEnding: p.lineEnding, used: false, issues: p.issues };
    if (p.recognition) {
      f.format = p.recognition.format;
      f.confidence = p.recognition.confidence;
      f.reason = p.recognition.reason;
    }
    const y = fileYield(p);
    if (Object.keys(y).length) f.yields = y;
    info.set(p, f);
    return f;
  });
  const meta: NodeMeta = { sources: {} };

  // --- HNS objects: one source per role, best first -------------------------------------------
  const hnsFiles = parsed.filter((p) => p.content.type === 'hns') as (ParsedFile & { content: { type: 'hns'; value: HnsFile } })[];
  const diagFiles = parsed.filter((p) => p.content.type === 'hnsdiag') as (ParsedFile & { content: { type: 'hnsdiag'; value: Hnsdiag } })[];
  const pick = <T>(role: Role, get: (f: HnsFile) => T[], fromDiag: (d: Hnsdiag, file: string) => T[]): T[] | null => {
    const cands: Candidate<T>[] = [];
    for (const f of hnsFiles) {
      const items = get(f.content.value);
      const rank = CANONICAL[role].test(f.name) ? 0 : f.kind === ROLE_KIND[role] ? 1 : 2;
      // A canonical file counts even when empty: an empty pipeline means "none", not "unknown".
      if (items.length > 0 || rank < 2) cands.push({ file: f, rank, items });
    }
    for (const d of diagFiles) {
      const items = fromDiag(d.content.value, d.name);
      if (items.length > 0) cands.push({ file: d, rank: 3, items });
    }
    cands.sort((a, b) => a.rank - b.rank || b.items.length - a.items.length || a.file.name.localeCompare(b.file.name));
    const [best] = cands;
    if (!best) return null;
    info.get(best.file)!.used = true;
    meta.sources[role] = [best.file.name];
    // Without the collector's own file, the objects are what several single outputs say together
    // (pastes, files saved by hand): each object once, by ID, from the best source that has it.
    if (best.rank >= 1) {
      const items = [...best.items];
      const ids = new Set(items.map((o) => idOf(o)).filter((x) => x !== ''));
      for (const c of cands.slice(1)) {
        if (c.rank >= 3 && cands.some((x) => x.rank < 3)) continue; // hnsdiag listings only when no HNS JSON/list exists
        let added = 0;
        for (const o of c.items) {
          const id = idOf(o);
          if (id === '' || ids.has(id)) continue;
          ids.add(id);
          items.push(o);
          added++;
        }
        if (added > 0) {
          info.get(c.file)!.used = true;
          meta.sources[role]!.push(c.file.name);
        }
      }
      for (const c of cands.slice(1)) {
        const fi = info.get(c.file)!;
        if (!fi.used) fi.note = fi.note ?? `${role} were taken from ${meta.sources[role]!.join(', ')}`;
      }
      return items;
    }
    for (const c of cands.slice(1)) {
      const fi = info.get(c.file)!;
      if (!fi.used) fi.note = fi.note ?? `${role} were taken from ${best.file.name}`;
    }
    return best.items;
  };
  const diagObjects = new Map<Hnsdiag, ReturnType<typeof hnsdiagToObjects>>();
  const diag = (d: Hnsdiag, file: string) => {
    if (!diagObjects.has(d)) diagObjects.set(d, hnsdiagToObjects(d, file));
    return diagObjects.get(d)!;
  };
  const networks = pick<HnsNetwork>('networks', (f) => f.networks, (d, f) => diag(d, f).networks);
  const endpoints = pick<HnsEndpoint>('endpoints', (f) => f.endpoints, (d, f) => diag(d, f).endpoints);
  const loadBalancers = pick<HnsLoadBalancer>('loadBalancers', (f) => f.loadBalancers, (d, f) => diag(d, f).loadBalancers);
  const namespaces = pick<HnsNamespace>('namespaces', (f) => f.namespaces, (d, f) => diag(d, f).namespaces);
  for (const d of diagFiles) info.get(d)!.used = true;
  const hnsdiag = diagFiles[0]?.content.value ?? null;

  const schemas = new Set([...(networks ?? []), ...(endpoints ?? []), ...(loadBalancers ?? [])].filter((o) => !('fromTable' in o && o.fromTable)).map((o) => o.schema));
  meta.schemaVersion = schemas.size === 0 ? undefined : schemas.size > 1 ? 'mixed' : [...schemas][0];

  // --- ipconfig and routes: the canonical file, else the first that parsed ----------------------
  const single = (type: 'ip' | 'routes', canonical: RegExp): ParsedFile | undefined => {
    const list = parsed.filter((p) => p.content.type === type);
    list.sort((a, b) => Number(!canonical.test(a.name)) - Number(!canonical.test(b.name)) || a.name.localeCompare(b.name));
    const [first] = list;
    if (!first) return undefined;
    info.get(first)!.used = true;
    meta.sources[type] = [first.name];
    for (const o of list.slice(1)) info.get(o)!.note = `${type === 'ip' ? 'IP configuration' : 'routes'} were taken from ${first.name}`;
    return first;
  };
  const ipFile = single('ip', /(^|\/)ip\.txt$/i)?.content;
  const ip = ipFile?.type === 'ip' ? ipFile.value : null;
  const routesFile = single('routes', /(^|\/)routes\.txt$/i)?.content;
  const routes = routesFile?.type === 'routes' ? routesFile.value : null;
  meta.hostName = ip?.compartments.find((c) => c.hostName)?.hostName;

  // --- VFP ports and rule dumps ------------------------------------------------------------------
  const { ports, vfp } = assembleVfp(parsed, info, meta);

  // --- facts from files hnsight only lists -------------------------------------------------------
  const winver = parsed.find((p) => /(^|\/)winver\.txt$/i.test(p.name) && p.content.type === 'text');
  if (winver && winver.content.type === 'text') {
    const text = winver.content.text;
    const os = /(\d+\.\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1];
    if (os !== undefined) {
      // CollectLogs writes `[System.Environment]::OSVersion.ToString()` (shared/reference/collectlogs-formats.md:
      // winver.txt), whose revision is 0 on every bundle seen ("Microsoft Windows NT 10.0.20348.0"): the
      // monthly update is not in it. The update build revision is the registry value UBR under
      // HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion (Windows SDK winnt.h UNIFIEDBUILDREVISION_VALUE
      // "UBR"), which hnsight's own collection adds as `Build revision N` (services/live/collect-commands.ts);
      // `cmd /c ver` prints it as `[Version 10.0.20348.2113]`. Where the bundle has it, it replaces the 0.
      let build = os;
      const ver = /\[Version (\d+\.\d+\.\d+\.\d+)\]/.exec(text)?.[1];
      const ubr = /^\s*(?:Build revision|UBR)\s*:?\s*(\d+)\s*$/im.exec(text)?.[1];
      const parts = build.split('.');
      if (ubr !== undefined && parts.length >= 3) build = `${parts.slice(0, 3).join('.')}.${ubr}`;
      else if (ver !== undefined && ver.split('.').slice(0, 3).join('.') === parts.slice(0, 3).join('.')) build = ver;
      meta.windowsBuild = build;
      info.get(winver)!.used = true;
    }
  }
  // The AKS node setup's cluster configuration: the analysis reads its CNI name and Service range.
  const clusterConfig = parsed.find((p) => /(^|\/)kubeclusterconfig\.json$/i.test(p.name) && p.text !== undefined);
  if (clusterConfig && /"(ServiceCidr|Cni)"\s*:/i.test(clusterConfig.text!)) info.get(clusterConfig)!.used = true;
  // The two netsh port-range files the port-capacity check reads together (analysis/checks/port-capacity.ts):
  // read when both are there and the dynamic ranges parse.
  const netsh = (re: RegExp) => parsed.find((p) => re.test(p.name) && p.text !== undefined);
  const dynamic = netsh(/(^|\/)dynamicportrange\.txt$/i);
  const excluded = netsh(/(^|\/)excludedportrange\.txt$/i);
  if (dynamic && excluded && parseNetshPortRanges(dynamic.text!, dynamic.name).value.dynamic.length) {
    info.get(dynamic)!.used = true;
    info.get(excluded)!.used = true;
  }
  // By the names of files that hold what their name says: a folder of junk named network.txt,
  // endpoint.txt … was not written by collectlogs.ps1. A file recognised by its name alone (0.6; an
  // empty one 0.9) is left out only when its kind has a content detector that did not confirm it;
  // hnsportpoolallocs.txt or windowsServices.txt have none, so their name is all there is.
  meta.collector = detectCollector(parsed.filter((p) => !(p.recognition?.by === 'name' && p.recognition.confidence < 0.9 && CONTENT_DETECTED.has(p.kind))).map((p) => p.name));

  const model: NodeModel = {
    source,
    meta,
    files,
    networks,
    endpoints,
    loadBalancers,
    namespaces,
    hnsdiag,
    ip: ip ? { compartments: ip.compartments, language: ip.language, netIpAddresses: ip.netIpAddresses, netIpInterfaces: ip.netIpInterfaces } : null,
    routes,
    ports,
    vfp,
    joins: { endpoints: [], loadBalancers: [], unmatched: [] },
  };
  model.joins = joinObjects(model);
  const side = collectSideInputs(parsed, (p) => (info.get(p)!.used = true));
  if (side.k8s) model.k8s = side.k8s;
  if (side.cni) model.cni = side.cni;
  if (side.logs) model.logs = side.logs;
  model.text = evidenceText(parsed, vfp);
  return model;
}

const idOf = (o: unknown): string => (typeof o === 'object' && o !== null && typeof (o as { id?: unknown }).id === 'string' ? (o as { id: string }).id.toLowerCase() : '');

/** Rules of parsed ports VfpStore.getPolicy keeps by default (≈ 12 ports of a 4,000-rule node, ≈ 185 MB). */
const POLICY_CACHE_RULES = 50_000;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function assembleVfp(parsed: ParsedFile[], info: Map<ParsedFile, BundleFileInfo>, meta: NodeMeta): { ports: VfpPortRef[] | null; vfp: VfpStore | null } {
  const portFiles = parsed.filter((p) => p.content.type === 'ports');
  const vfpFiles = parsed.filter((p) => p.content.type === 'vfp');
  if (!portFiles.length && !vfpFiles.length) return { ports: null, vfp: null };
  const byKey = new Map<string, VfpPortRef>();
  const ensure = (name: string, src: { file: string; line: number }): VfpPortRef => {
    const key = name.trim().toLowerCase();
    let p = byKey.get(key);
    if (!p) {
      p = { key, name: name.trim(), role: 'unknown', src };
      byKey.set(key, p);
    }
    return p;
  };
  for (const f of portFiles) {
    if (f.content.type !== 'ports') continue;
    info.get(f)!.used = true;
    for (const sp of f.content.value) {
      if (!sp.name) continue;
      const p = ensure(sp.name, sp.src);
      p.switchPort = p.switchPort ?? sp;
      p.friendlyName = p.friendlyName ?? sp.friendlyName;
      p.mac = p.mac ?? sp.mac;
    }
  }
  meta.sources.ports = portFiles.map((f) => f.name);

  const store: VfpStore['files'] = [];
  const totals = { ports: 0, layers: 0, groups: 0, rules: 0 };
  for (const f of vfpFiles) {
    if (f.content.type !== 'vfp') continue;
    info.get(f)!.used = true;
    const fileIdx = store.length;
    const { index, bytes } = f.content;
    store.push({ file: f.name, bytes, index });
    for (const row of index.portTable) {
      if (!row.name) continue;
      const p = ensure(row.name, row.src);
      p.mac = p.mac ?? row.mac;
    }
    index.ports.forEach((ip, i) => {
      const name = ip.name || `(unnamed port in ${f.name})`;
      const p = ensure(name, lazySrc(f.name, index, ip.byte));
      if (p.policy) {
        f.issues.push({ file: f.name, line: ip.line, severity: 'warning', message: `rules of port ${name} also appear in ${store[p.policy.file]?.file ?? 'another dump'}; this copy is ignored` });
        return;
      }
      p.policy = { file: fileIdx, port: i, layers: ip.layers, groups: ip.groups, rules: ip.rules, blocked: ip.blocked, src: lazySrc(f.name, index, ip.byte) };
      totals.layers += ip.layers;
      totals.groups += ip.groups;
      totals.rules += ip.rules;
    });
    if (index.generation !== 'unknown') meta.vfpGeneration = meta.vfpGeneration ?? index.generation;
  }
  meta.sources.vfp = vfpFiles.map((f) => f.name);
  const ports = [...byKey.values()];
  for (const p of ports) {
    const fn = (p.friendlyName ?? '').toLowerCase();
    if (fn === 'externalport' || /^external/.test(fn)) p.role = 'external';
    else if (fn.startsWith('container nic')) p.role = 'host-vnic';
  }
  totals.ports = ports.filter((p) => p.policy).length;

  // Parsed ports are kept while they add up to at most cacheRules rules, the least recently used
  // dropped first: a parsed rule costs ≈ 3.7 KB, and a node's every port parsed and kept was 3.7 GB.
  const cache = new Map<string, { policy: VfpPortPolicy; rules: number }>();
  let cachedRules = 0;
  const vfp: VfpStore | null = vfpFiles.length
    ? {
        files: store,
        totals,
        cacheRules: POLICY_CACHE_RULES,
        getPolicy(portName: string) {
          const key = portName.trim().toLowerCase();
          const hit = cache.get(key);
          if (hit) {
            // Most recently used last.
            cache.delete(key);
            cache.set(key, hit);
            return hit.policy;
          }
          const ref = byKey.get(key);
          if (!ref?.policy) return undefined;
          const f = store[ref.policy.file];
          if (!f) return undefined;
          const r = materializeVfpPort(f.bytes, f.index, ref.policy.port);
          cache.set(key, { policy: r.value, rules: ref.policy.rules });
          cachedRules += ref.policy.rules;
          for (const [k, v] of cache) {
            if (cachedRules <= vfp!.cacheRules || k === key) break;
            cache.delete(k);
            cachedRules -= v.rules;
          }
          return r.value;
        },
        getPortSections(portName: string) {
          const key = portName.trim().toLowerCase();
          const hit = cache.get(key);
          if (hit) return hit.policy;
          const ref = byKey.get(key);
          if (!ref?.policy) return undefined;
          const f = store[ref.policy.file];
          if (!f) return undefined;
          return materializeVfpPortTail(f.bytes, f.index, ref.policy.port) ?? vfp!.getPolicy(portName);
        },
      }
    : null;
  return { ports, vfp };
}

/**
 * A source reference whose line is counted only when someone reads it: numbering the lines of a
 * 900 MB dump costs a pass over it, which a load should not pay for lines nobody looks at.
 */
function lazySrc(file: string, index: VfpIndex, byte: number): SourceRef {
  let line: number | undefined;
  return {
    file,
    get line() {
      return (line ??= index.lineAt(byte));
    },
  };
}

function joinObjects(m: NodeModel): Joins {
  const joins: Joins = { endpoints: [], loadBalancers: [], unmatched: [] };
  const portByKey = new Map((m.ports ?? []).map((p) => [p.key, p]));
  const adapters = (m.ip?.compartments ?? []).flatMap((c) => c.adapters.map((a) => ({ c, a })));
  for (const n of m.networks ?? []) {
    const host = n.hostVnicPortGuid && portByKey.get(n.hostVnicPortGuid.toLowerCase());
    if (host) host.role = 'host-vnic';
    const ext = n.externalPortGuid && portByKey.get(n.externalPortGuid.toLowerCase());
    if (ext) ext.role = 'external';
  }
  for (const ep of m.endpoints ?? []) {
    const j: (typeof joins.endpoints)[number] = { endpointId: ep.id };
    if (!ep.isRemote && m.ports) {
      const byGuid = ep.portName ? portByKey.get(ep.portName.toLowerCase()) : undefined;
      const byId = portByKey.get(ep.id.toLowerCase());
      const port = byGuid ?? byId;
      if (port) {
        j.portKey = port.key;
        j.portVia = byGuid ? 'EndpointPortGuid' : 'endpoint ID';
        port.endpointId = ep.id;
        if (port.role === 'unknown') port.role = 'endpoint';
      } else if (ep.id) {
        joins.unmatched.push({
          kind: 'endpoint-port',
          id: ep.id,
          message: `local endpoint ${ep.name || ep.id}${ep.ip ? ` (${ep.ip})` : ''} has no VFP port in the bundle (looked for ${[ep.portName, ep.id].filter(Boolean).join(' and ')})`,
          src: ep.src,
        });
      }
    }
    if (!ep.isRemote && m.ip) {
      const byIp = ep.ip ? adapters.find(({ a }) => a.ipv4.some((x) => x.address === ep.ip)) : undefined;
      const mac = ep.mac?.toUpperCase();
      const byMac = !byIp && mac ? adapters.find(({ a }) => a.mac === mac) : undefined;
      const hit = byIp ?? byMac;
      if (hit) {
        j.compartmentId = hit.c.id;
        j.adapterName = hit.a.name;
        j.adapterVia = byIp ? 'ip' : 'mac';
      } else if (ep.id) {
        joins.unmatched.push({
          kind: 'endpoint-adapter',
          id: ep.id,
          message: `local endpoint ${ep.name || ep.id}${ep.ip ? ` (${ep.ip})` : ''} has no adapter in any compartment of the IP configuration`,
          src: ep.src,
        });
      }
    }
    joins.endpoints.push(j);
  }
  for (const p of m.ports ?? []) {
    if (p.role === 'unknown' && p.policy && m.endpoints && GUID.test(p.key)) {
      joins.unmatched.push({ kind: 'port-endpoint', id: p.name, message: `VFP port ${p.name} belongs to no HNS endpoint, host vNIC or uplink in the bundle`, src: p.src });
    }
  }
  if (m.endpoints) {
    const ids = new Set(m.endpoints.map((e) => e.id.toLowerCase()));
    for (const lb of m.loadBalancers ?? []) {
      const resolved: string[] = [];
      const dangling: string[] = [];
      for (const id of lb.endpointIds) (ids.has(id.toLowerCase()) ? resolved : dangling).push(id);
      joins.loadBalancers.push({ loadBalancerId: lb.id, resolved, dangling });
      for (const d of dangling) {
        joins.unmatched.push({ kind: 'lb-endpoint', id: lb.id, message: `load balancer ${lb.id} (${lb.vips.join(', ') || 'no VIP'}) references endpoint ${d}, which is not in the bundle`, src: lb.src });
      }
    }
  }
  return joins;
}

/** Kinds recognition can confirm from content (parsers/bundle/detect/): the HNS outputs, hnsdiag, VFP, ipconfig, routes. */
const CONTENT_DETECTED = new Set<string>(['network', 'endpoint', 'namespaces', 'policy', 'hns-json', 'networkdetailed', 'hnsdiag', 'vfp', 'ip', 'routes']);

function detectCollector(names: string[]): string | undefined {
  const has = (re: RegExp) => names.some((n) => re.test(n));
  if (has(/(^|\/)kubeclusterconfig\.json$/i) || has(/collect-windows-logs-output\.log$/i)) return 'AKS collect-windows-logs';
  if (has(/(^|\/)VfpCtrl\.PortGuid\./i) || has(/(^|\/)HNSDiag_all/i)) return 'Get-NetView';
  if (has(/(^|\/)hnslogs\//i)) return 'wcnscripts collectlogs';
  if (has(/(^|\/)(hnsportpoolallocs|windowsServices)\.txt$/i)) return 'SDN collectlogs.ps1 (2024-07 or later)';
  if (has(/(^|\/)namespaces\.txt$/i)) return 'SDN collectlogs.ps1 (2022-09 or later)';
  if (has(/(^|\/)docker\.txt$/i)) return 'SDN collectlogs.ps1 (before 2022-09)';
  if (has(/(^|\/)(network|endpoint|vfpOutput)\.txt$/i)) return 'SDN collectlogs.ps1';
  return undefined;
}
