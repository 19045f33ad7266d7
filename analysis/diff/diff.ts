// Two node models → what changed. Each object kind is reduced to a flat record of the fields a
// person compares (strings, lists sorted so order in the file does not count as a change) and matched
// by a stable key: HNS IDs for networks and endpoints, `VIP:port/proto` for load balancers (kube-proxy
// recreates them with new IDs; the ID then shows as a changed field), destination/gateway/interface
// for routes, the port name for VFP ports, and port/layer/group/rule for VFP rules.
import type { NodeModel, VfpPortRef } from '../../parsers/model/types.ts';
import type { SourceRef } from '../../parsers/types.ts';
import type { HnsEndpoint, HnsLoadBalancer, HnsNetwork } from '../../parsers/hns/index.ts';
import type { VfpRule } from '../../parsers/vfp/index.ts';
import type { Finding } from '../findings/types.ts';
import { countObjects } from '../inspect.ts';
import { protoName } from '../k8s/index.ts';
import { DIFF_SCHEMA, type CounterDelta, type DiffChange, type DiffFinding, type DiffKind, type DiffObject, type DiffResult, type DiffSection, type DiffSide, type RuleCounters } from './types.ts';

interface Rec {
  key: string;
  label: string;
  fields: Record<string, string>;
  src?: SourceRef;
}

export interface DiffOptions {
  /** Findings of each side (runChecks); without them the findings part is empty. */
  findingsA?: Finding[];
  findingsB?: Finding[];
  /** Compare the rules of at most this many ports present on both sides (default: all). */
  maxRulePorts?: number;
}

const short = (g: string) => (/^[0-9a-f]{8}-/i.test(g) ? `${g.slice(0, 8)}…` : g);
const list = (xs: (string | number | undefined)[]) => [...new Set(xs.filter((x) => x !== undefined && x !== '').map(String))].sort().join(', ');
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

export function diffModels(a: NodeModel, b: NodeModel, opts: DiffOptions = {}): DiffResult {
  const sections: DiffSection[] = [
    section('network', 'HNS networks', a.networks && networks(a.networks), b.networks && networks(b.networks), 'network.txt'),
    section('endpoint', 'HNS endpoints', a.endpoints && endpoints(a.endpoints), b.endpoints && endpoints(b.endpoints), 'endpoint.txt'),
    section('loadbalancer', 'Load balancers', a.loadBalancers && loadBalancers(a, a.loadBalancers), b.loadBalancers && loadBalancers(b, b.loadBalancers), 'policy.txt'),
    section('route', 'IPv4 routes', a.routes && routes(a), b.routes && routes(b), 'routes.txt'),
    section('port', 'VFP ports', a.ports && ports(a, a.ports), b.ports && ports(b, b.ports), 'ports.txt / vfpOutput.txt'),
  ];
  const rules = ruleDiff(a, b, opts.maxRulePorts);
  sections.push(rules.section);
  const totals = { added: 0, removed: 0, changed: 0 };
  for (const s of sections) {
    totals.added += s.added.length;
    totals.removed += s.removed.length;
    totals.changed += s.changed.length;
  }
  return {
    schema: DIFF_SCHEMA,
    a: side(a),
    b: side(b),
    sameHost: !!a.meta.hostName && a.meta.hostName.toLowerCase() === b.meta.hostName?.toLowerCase(),
    sections,
    counters: rules.counters,
    ...(rules.countersSkipped ? { countersSkipped: rules.countersSkipped } : {}),
    findings: findingsDiff(opts.findingsA ?? [], opts.findingsB ?? []),
    totals,
  };
}

function side(m: NodeModel): DiffSide {
  return { location: m.source.location, hostName: m.meta.hostName, windowsBuild: m.meta.windowsBuild, counts: countObjects(m) };
}

function section(kind: DiffKind, title: string, a: Rec[] | null, b: Rec[] | null, file: string): DiffSection {
  if (!a || !b) return { kind, title, added: [], removed: [], changed: [], unchanged: 0, skipped: `${!a && !b ? 'neither bundle has' : !a ? 'the first bundle has no' : 'the second bundle has no'} ${file}` };
  return compare(kind, title, a, b);
}

function compare(kind: DiffKind, title: string, a: Rec[], b: Rec[]): DiffSection {
  const ma = byKey(a);
  const mb = byKey(b);
  const s: DiffSection = { kind, title, added: [], removed: [], changed: [], unchanged: 0 };
  for (const [k, ra] of ma) {
    const rb = mb.get(k);
    if (!rb) {
      s.removed.push(obj(ra));
      continue;
    }
    const fields = Object.keys({ ...ra.fields, ...rb.fields })
      .filter((f) => (ra.fields[f] ?? '') !== (rb.fields[f] ?? ''))
      .map((f) => ({ field: f, a: ra.fields[f] ?? '', b: rb.fields[f] ?? '' }));
    if (fields.length) {
      const c: DiffChange = { key: k, label: rb.label, fields };
      if (ra.src) c.src = ra.src;
      if (rb.src) c.srcB = rb.src;
      s.changed.push(c);
    } else s.unchanged++;
  }
  for (const [k, rb] of mb) if (!ma.has(k)) s.added.push(obj(rb));
  return s;
}

function obj(r: Rec): DiffObject {
  return r.src ? { key: r.key, label: r.label, src: r.src } : { key: r.key, label: r.label };
}

/** Keys are unique per side: a second object with the same key gets `#2`, `#3`. */
function byKey(rs: Rec[]): Map<string, Rec> {
  const m = new Map<string, Rec>();
  // The next suffix to try per key: counting from 2 each time is quadratic in the duplicates (a
  // hostile dump repeats one rule thousands of times).
  const next = new Map<string, number>();
  for (const r of rs) {
    let k = r.key;
    if (m.has(k)) {
      let i = next.get(r.key) ?? 2;
      while (m.has((k = `${r.key}#${i}`))) i++;
      next.set(r.key, i + 1);
    }
    m.set(k, k === r.key ? r : { ...r, key: k });
  }
  return m;
}

function policies(ps: { type: string; settings: Record<string, unknown> }[]): string {
  return ps
    .map((p) => `${p.type}${Object.keys(p.settings).length ? ` ${JSON.stringify(sortKeys(p.settings))}` : ''}`)
    .sort()
    .join('; ');
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

function networks(ns: HnsNetwork[]): Rec[] {
  return ns.map((n) => ({
    key: n.id.toLowerCase(),
    label: `network ${n.name || short(n.id)} (${n.type || '?'})`,
    src: n.src,
    fields: {
      name: n.name,
      type: n.type,
      subnets: list(n.subnets.map((s) => `${s.prefix}${s.gateway ? ` gw ${s.gateway}` : ''}${s.vsid !== undefined ? ` vsid ${s.vsid}` : ''}`)),
      managementIp: str(n.managementIp),
      providerAddress: str(n.providerAddress),
      drMac: str(n.drMac),
      sourceMac: str(n.sourceMac),
      networkAdapterName: str(n.networkAdapterName),
      remoteSubnetRoutes: list(n.remoteSubnetRoutes.map((r) => `${r.destinationPrefix} → PA ${r.providerAddress}${r.isolationId !== undefined ? ` VNI ${r.isolationId}` : ''}${r.drMac ? ` ${r.drMac}` : ''}`)),
      dnsServers: list(n.dnsServers),
      dnsSuffix: str(n.dnsSuffix),
      state: str(n.state),
      policies: policies(n.policies),
    },
  }));
}

function endpoints(es: HnsEndpoint[]): Rec[] {
  return es.map((e) => ({
    key: e.id.toLowerCase(),
    label: `${e.isRemote ? 'remote ' : ''}endpoint ${e.ip ?? '(no IP)'} (${e.name ? (e.name.length > 30 ? `${e.name.slice(0, 12)}…` : e.name) : short(e.id)})`,
    src: e.src,
    fields: {
      name: e.name,
      ip: str(e.ip),
      mac: str(e.mac),
      gateway: str(e.gateway),
      network: str(e.networkName ?? e.networkId),
      remote: String(e.isRemote),
      state: str(e.state),
      providerAddress: str(e.providerAddress),
      vfpPort: str(e.portName?.toLowerCase()),
      compartment: str(e.compartmentId),
      dnsServers: list(e.dnsServers),
      outboundNatExceptions: list(e.outboundNat.flatMap((o) => o.exceptions)),
      routes: list(e.routes.map((r) => `${r.destinationPrefix}${r.nextHop ? ` via ${r.nextHop}` : ''}${r.needEncap ? ' encap' : ''}`)),
      policies: policies(e.policies),
    },
  }));
}

function loadBalancers(m: NodeModel, lbs: HnsLoadBalancer[]): Rec[] {
  const ipOf = new Map((m.endpoints ?? []).map((e) => [e.id.toLowerCase(), e.ip]));
  return lbs.map((l) => {
    const fe = l.ports.map((p) => `${l.vips.length ? l.vips.join(',') : '(no VIP)'}:${p.externalPort}/${protoName(p.protocol)}`);
    const key = l.vips.length && l.ports.length ? fe.join(' ') : `id:${l.id.toLowerCase()}`;
    return {
      key,
      label: `load balancer ${l.vips.length ? fe.join(' ') : `${short(l.id)} (no VIP${l.ports.length ? `, ${l.ports.map((p) => `${p.externalPort}/${protoName(p.protocol)}`).join(' ')}` : ''})`}`,
      src: l.src,
      fields: {
        id: l.id.toLowerCase(),
        backends: list(l.endpointIds.map((id) => ipOf.get(id.toLowerCase()) ?? `${short(id)} (no such endpoint)`)),
        internalPorts: l.ports.map((p) => `${p.externalPort}→${p.internalPort}`).join(', '),
        sourceVip: str(l.sourceVip),
        dsr: String(l.dsr),
        flags: list(l.ports.flatMap((p) => [p.ilb && 'ILB', p.localRoutedVip && 'LocalRoutedVIP', p.useMux && 'UseMux', p.preserveDip && 'PreserveDIP'].filter(Boolean) as string[])),
        state: str(l.state),
      },
    };
  });
}

function routes(m: NodeModel): Rec[] {
  const r = m.routes!;
  const rows: Rec[] = r.ipv4Active.map((x) => ({
    key: `${x.destination}/${x.prefixLength ?? x.netmask} via ${x.gateway} on ${x.interface ?? '?'}`,
    label: `route ${x.destination}/${x.prefixLength ?? x.netmask} via ${x.gateway}${x.interface ? ` (interface ${x.interface})` : ''}`,
    src: x.src,
    fields: { metric: x.metricText },
  }));
  if (rows.length) return rows;
  // A file with only Get-NetRoute output.
  return r.netRoutes
    .filter((x) => !x.destinationPrefix.includes(':'))
    .map((x) => ({ key: `${x.destinationPrefix} via ${x.nextHop} on if${x.ifIndex}`, label: `route ${x.destinationPrefix} via ${x.nextHop} (ifIndex ${x.ifIndex})`, fields: { metric: str(x.routeMetric) } }));
}

function portLabel(m: NodeModel, p: VfpPortRef): string {
  const ep = p.endpointId ? (m.endpoints ?? []).find((e) => e.id.toLowerCase() === p.endpointId!.toLowerCase()) : undefined;
  const who = ep?.ip ? `pod ${ep.ip}` : p.role === 'external' ? 'uplink' : p.role === 'host-vnic' ? 'host vNIC' : p.friendlyName || p.role;
  return `port ${short(p.name)} (${who})`;
}

function ports(m: NodeModel, ps: VfpPortRef[]): Rec[] {
  return ps.map((p) => ({
    key: p.key,
    label: portLabel(m, p),
    src: p.policy?.src ?? p.src,
    fields: {
      friendlyName: str(p.friendlyName),
      mac: str(p.mac),
      role: p.role,
      endpoint: str(p.endpointId?.toLowerCase()),
      blocked: String(!!p.policy?.blocked),
      layers: str(p.policy?.layers),
      rules: str(p.policy?.rules),
    },
  }));
}

function ruleRecord(r: VfpRule): Record<string, string> {
  return {
    name: r.name,
    priority: str(r.priority),
    type: r.type,
    flags: r.flagNames.length ? r.flagNames.join(' ') : String(r.flags),
    conditions: list(r.conditions.map((c) => `${c.key}=${c.value}`)),
    dipRanges: list(r.dipRanges.map((d) => `${d.ip}${d.port !== undefined ? `:${d.port}` : ''}`)),
    encap: list(r.encapDestinations.map((d) => `${d.ip}${d.mac ? ` ${d.mac}` : ''}${d.greKey !== undefined ? ` key ${d.greKey}` : ''}`)),
    modify: list(Object.entries(r.modify).map(([k, v]) => `${k}=${v}`)),
  };
}

function ruleDiff(a: NodeModel, b: NodeModel, maxPorts = Infinity): { section: DiffSection; counters: CounterDelta[]; countersSkipped?: string } {
  const title = 'VFP rules';
  if (!a.vfp || !b.vfp || !a.ports || !b.ports) {
    return { section: { kind: 'rule', title, added: [], removed: [], changed: [], unchanged: 0, skipped: `${!a.vfp ? 'the first' : 'the second'} bundle has no VFP rule dump (vfpOutput.txt)` }, counters: [], countersSkipped: 'no rules to compare' };
  }
  const portsB = new Map(b.ports.map((p) => [p.key, p]));
  const common = a.ports.filter((p) => p.policy && portsB.get(p.key)?.policy).slice(0, maxPorts);
  const recA: Rec[] = [];
  const recB: Rec[] = [];
  const countersA = new Map<string, { c: RuleCounters; src: SourceRef }>();
  const countersB = new Map<string, { c: RuleCounters; src: SourceRef }>();
  let withCountersA = 0;
  let withCountersB = 0;
  for (const pa of common) {
    const pb = portsB.get(pa.key)!;
    const label = portLabel(b, pb);
    const collect = (m: NodeModel, p: VfpPortRef, out: Rec[], counters: Map<string, { c: RuleCounters; src: SourceRef }>) => {
      let n = 0;
      const pol = m.vfp!.getPolicy(p.name);
      for (const l of pol?.layers ?? []) {
        for (const g of l.groups) {
          for (const r of g.rules) {
            const key = `${p.key}/${l.id}/${g.id}/${r.id || r.name}`;
            out.push({ key, label: `${r.name} — ${label}, ${l.id} / ${g.id}`, src: r.src, fields: ruleRecord(r) });
            if (r.counters) {
              counters.set(key, { c: r.counters, src: r.src });
              n++;
            }
          }
        }
      }
      return n;
    };
    withCountersA += collect(a, pa, recA, countersA);
    withCountersB += collect(b, pb, recB, countersB);
  }
  const s = compare('rule', title, recA, recB);
  const onlyOne = a.ports.filter((p) => p.policy && !portsB.get(p.key)?.policy).length + b.ports.filter((p) => p.policy && !a.ports!.some((x) => x.key === p.key && x.policy)).length;
  if (onlyOne) s.title = `${title} (of the ${common.length} ports in both bundles; ports added or removed are under VFP ports)`;
  if (common.length < a.ports.filter((p) => p.policy && portsB.get(p.key)?.policy).length) s.skipped = `only the first ${common.length} common ports were compared`;
  const counters: CounterDelta[] = [];
  let countersSkipped: string | undefined;
  if (!withCountersA || !withCountersB) countersSkipped = `${!withCountersA && !withCountersB ? 'neither dump has' : !withCountersA ? 'the first dump has no' : 'the second dump has no'} rule counters (vfpctrl /get-rule-counter)`;
  else {
    const labels = new Map(recB.map((r) => [r.key, r.label]));
    for (const [k, ca] of countersA) {
      const cb = countersB.get(k);
      if (!cb) continue;
      const delta: RuleCounters = {};
      let moved = false;
      for (const f of ['matchedPackets', 'droppedPackets', 'pendingPackets', 'droppedFlows'] as const) {
        const x = ca.c[f];
        const y = cb.c[f];
        if (x === undefined || y === undefined) continue;
        delta[f] = y - x;
        if (y !== x) moved = true;
      }
      if (moved) counters.push({ key: k, label: labels.get(k) ?? k, a: ca.c, b: cb.c, delta, src: ca.src, srcB: cb.src });
    }
  }
  return { section: s, counters, ...(countersSkipped ? { countersSkipped } : {}) };
}

function findingKey(f: Finding): string {
  return `${f.id}|${[...f.objects].map((o) => o.toLowerCase()).sort().join(',')}`;
}

function findingsDiff(a: Finding[], b: Finding[]): { appeared: DiffFinding[]; disappeared: DiffFinding[] } {
  const ka = new Set(a.map(findingKey));
  const kb = new Set(b.map(findingKey));
  const brief = (f: Finding): DiffFinding => ({ id: f.id, severity: f.severity, title: f.title, objects: f.objects });
  return { appeared: b.filter((f) => !ka.has(findingKey(f))).map(brief), disappeared: a.filter((f) => !kb.has(findingKey(f))).map(brief) };
}
