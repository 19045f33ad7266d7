// HNS objects in any of the ways people print them: ConvertTo-Json (PowerShell 5.1 aligns values
// after `":  `, PowerShell 7 indents by two with `": `), compact JSON (HNS's own REST answer
// `{"Success":true,"Output":…}`, hnsdiag -d `"Key":value`), a piece cut out of such JSON, the
// default list view (`Key : value`, nested objects as `@{…}`) and Format-Table. The object kind is
// told by the member names only that kind has (parsers/hns/classify.ts reads each object the same way).
import type { FileKind } from '../file-kind.ts';
import { at, clamp, nonBlankLines, type Detection, type Sample } from './types.ts';

const KEYS: Record<'network' | 'endpoint' | 'policy' | 'namespaces', string[]> = {
  network: ['Subnets', 'MacPools', 'MacPool', 'LayeredOn', 'ManagementIP', 'DrMacAddress', 'Ipams', 'TotalEndpoints', 'CurrentEndpointCount', 'NetworkAdapterName', 'Extensions', 'NatName', 'DNSServerCompartment', 'MaxConcurrentEndpoints', 'AutomaticDNS'],
  endpoint: ['IPAddress', 'IsRemoteEndpoint', 'VirtualNetworkName', 'VirtualNetwork', 'EncapOverhead', 'IpConfigurations', 'SharedContainers', 'HostComputeNamespace', 'GatewayAddress', 'PrefixLength', 'DNSServerList', 'MacAddress', 'CreateProcessingStartTime', 'ExceptionList', 'NeedEncap'],
  policy: ['FrontendVIPs', 'HostComputeEndpoints', 'PortMappings', 'References', 'SourceVIP', 'VIPs', 'IsDSR', 'IsApplied', 'ExternalPort', 'InternalPort'],
  namespaces: ['CompartmentId', 'CompartmentGuid', 'IsDefault', 'NamespaceId', 'ResourceList', 'Containers'],
};
// Names only one kind of HNS object has: one of them is already good evidence.
const STRONG = new Set(['FrontendVIPs', 'HostComputeEndpoints', 'IsRemoteEndpoint', 'LayeredOn', 'MacPools', 'ManagementIP', 'DrMacAddress', 'VirtualNetworkName', 'CompartmentGuid', 'IsDefault', 'TotalEndpoints', 'CurrentEndpointCount', 'IpConfigurations', 'Ipams', 'EncapOverhead', 'References']);
const COMMON = ['ActivityId', 'AdditionalParams', 'Health', 'Resources', 'Version', 'State', 'Policies', 'ID', 'Id', 'Flags', 'SchemaVersion'];
// Members that also name other things (Get-NetIPAddress has IPAddress and PrefixLength).
const NOT_HNS = ['InterfaceAlias', 'InterfaceIndex', 'AddressFamily', 'PrefixOrigin', 'cniVersion', 'apiVersion', 'cniconfig'];

const LOG_LINE = /^(?:[IWEF]\d{4} \d\d:\d\d|\S*\s*time="|\d{4}[-/]\d\d[-/]\d\d[ T]\d\d:\d\d|\{"level":)/;

const NAMES: Record<string, string> = { network: 'HNS networks', endpoint: 'HNS endpoints', policy: 'HNS load balancers / policy lists', namespaces: 'HNS namespaces', 'hns-json': 'HNS objects' };
const CMD: Record<string, string> = { network: 'Get-HnsNetwork', endpoint: 'Get-HnsEndpoint', policy: 'Get-HnsPolicyList', namespaces: 'Get-HnsNamespace' };

function collect(s: Sample): { json: Set<string>; list: Set<string>; table: Set<string>; firstJson: number; firstList: number; firstTable: number; listLines: number } {
  const json = new Set<string>();
  const list = new Set<string>();
  const table = new Set<string>();
  let firstTable = -1;
  for (const [k, line] of s.lines.entries()) {
    const rule = s.lines[k + 1];
    if (rule === undefined || !/^\s*-{2,}(\s+-{2,})+\s*$/.test(rule) || line.trim() === '') continue;
    for (const w of line.trim().split(/\s+/)) table.add(w);
    if (firstTable < 0) firstTable = k;
  }
  let firstJson = -1;
  let firstList = -1;
  let listLines = 0;
  for (const [i, l] of nonBlankLines(s)) {
    // JSON quoted inside a log line (kube-proxy's "Hns Endpoint resource, {…}") belongs to the log.
    if (LOG_LINE.test(l)) continue;
    let m: RegExpExecArray | null;
    const re = /"([A-Za-z][\w]{1,40})"\s*:/g;
    let n = 0;
    while ((m = re.exec(l)) !== null && n++ < 400) {
      const [, key = ''] = m;
      json.add(key);
      if (firstJson < 0) firstJson = i;
    }
    const kv = /^([A-Za-z][\w]{1,40})\s+:(?:\s|$)/.exec(l);
    if (kv) {
      const [, key = ''] = kv;
      list.add(key);
      listLines++;
      if (firstList < 0) firstList = i;
    }
  }
  return { json, list, table, firstJson, firstList, firstTable, listLines };
}

function tally(keys: Set<string>): { kind: FileKind; hits: Record<string, string[]>; common: number } {
  const hits: Record<string, string[]> = {};
  for (const [k, names] of Object.entries(KEYS)) hits[k] = names.filter((n) => keys.has(n));
  const common = COMMON.filter((c) => keys.has(c)).length;
  const ranked = Object.entries(hits).sort((a, b) => b[1].length - a[1].length);
  const [top, second] = ranked;
  let kind: FileKind = 'hns-json';
  // KEYS names several kinds: a ranking always has a top and a second.
  if (!top || !second) return { kind, hits, common };
  if (top[1].length > 0 && second[1].length * 2 < top[1].length) kind = top[0] as FileKind;
  // A network's subnets have a GatewayAddress, a policy list's ELB has ports: small overlaps do not mix kinds.
  else if (top[1].length >= 3 && second[1].length <= 1) kind = top[0] as FileKind;
  return { kind, hits, common };
}

function jsonLayout(s: Sample): string {
  const t = s.text;
  const piece = !/^\s*[[{]/m.test(t) && !/^[A-Za-z][\w .()-]{0,40}:\s*\{"/m.test(t);
  let layout = 'JSON';
  if (/"Success"\s*:\s*(true|false)\s*[,}]|"(Output|Error)"[\s\S]{0,4000}"Success"\s*:/.test(t)) layout = 'an HNS REST answer';
  else if (/^ *"[\w]+": {2}\S/m.test(t)) layout = 'ConvertTo-Json, Windows PowerShell 5.1 layout';
  // PowerShell 7 (and Go's MarshalIndent) put one space after the colon, hnsdiag none.
  else if (/^ +"[\w]+": [^ ]/m.test(t)) layout = 'ConvertTo-Json, PowerShell 7 layout';
  else if (/^ {4}"[\w]+":[^ ]/m.test(t)) layout = 'hnsdiag -d JSON';
  return piece ? `a piece of ${layout === 'JSON' ? 'JSON' : layout.startsWith('an ') ? layout : `JSON, ${layout}`}` : layout.replace(/^an /, '');
}

export function detectHns(s: Sample): Detection | null {
  const c = collect(s);
  if ([...c.json, ...c.list].some((k) => NOT_HNS.includes(k))) {
    const other = NOT_HNS.filter((k) => c.json.has(k) || c.list.has(k));
    // Get-NetIPAddress, CNI configs and kubectl output carry a few HNS-like names: not HNS.
    if (other.length >= 2 || other.some((k) => k === 'cniVersion' || k === 'apiVersion' || k === 'cniconfig')) return null;
  }
  const jsonT = tally(c.json);
  const listT = tally(c.list);
  const tableT = tally(c.table);
  const count = (x: ReturnType<typeof tally>): number => Object.values(x.hits).reduce((n, h) => n + h.length, 0);
  const jsonHits = count(jsonT);
  const listHits = count(listT);
  const tableHits = count(tableT);
  if (jsonHits === 0 && listHits === 0 && tableHits === 0) return null;
  if (tableHits > jsonHits && tableHits > listHits && (c.table.has('ID') || c.table.has('Id'))) {
    const [top] = Object.entries(tableT.hits).sort((a, b) => b[1].length - a[1].length);
    return {
      kind: tableT.kind,
      format: `${NAMES[tableT.kind]} (${CMD[tableT.kind] ?? 'Get-Hns…'} | Format-Table)`,
      score: clamp(0.3 + tableHits * 0.12),
      reason: `a PowerShell table at ${at(c.firstTable)} with the columns of ${NAMES[tableT.kind]} (${top?.[1].join(', ') ?? ''})`,
    };
  }
  const useList = listHits > jsonHits && c.listLines >= 3;
  const t = useList ? listT : jsonT;
  const hits = useList ? listHits : jsonHits;
  // Structure: JSON (an object at column 0, a labelled one-line answer, or members of a piece) or a list.
  const structure = useList ? 0.3 : /^\s*[[{]/m.test(s.text) || /^[A-Za-z][\w .()-]{0,40}:\s*\{"/m.test(s.text) ? 0.35 : 0.25;
  const strong = Object.values(t.hits).flat().filter((k) => STRONG.has(k)).length;
  const score = clamp(structure + Math.min(0.5, hits * 0.12 + strong * 0.08) + Math.min(0.15, t.common * 0.05) - (t.common === 0 && hits < 3 && strong === 0 ? 0.2 : 0));
  const top = Object.entries(t.hits).filter(([, h]) => h.length > 0).sort((a, b) => b[1].length - a[1].length);
  const evidence = top.map(([k, h]) => `${k === 'policy' ? 'load balancer' : k.replace(/s$/, '')}: ${h.slice(0, 4).join(', ')}`).join('; ');
  const first = useList ? c.firstList : c.firstJson;
  const layout = useList ? `${CMD[t.kind] ?? 'Get-Hns…'} list view` : jsonLayout(s);
  return {
    kind: t.kind,
    format: `${NAMES[t.kind]} (${layout})`,
    score,
    reason: `${useList ? 'PowerShell list records' : 'JSON members'} of ${NAMES[t.kind]} from ${at(first)} (${evidence})`,
  };
}
