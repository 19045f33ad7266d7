// The `hnsight inspect --json` document (DESIGN.md §3): counts of every object kind, the files read,
// and the findings. A count whose source file is missing is null, never 0.
import type { NodeModel } from '../parsers/model/types.ts';
import type { Severity } from '../parsers/types.ts';
import type { Finding } from './findings/types.ts';
import { missingInputs, type MissingInput } from './missing.ts';
import { checkApplicability } from './checks/index.ts';
import { checkContext } from './checks/context.ts';
import { DEFAULT_BUDGET, OverBudgetError, WorkBudget, withBudget, type BudgetOptions } from './budget.ts';
import { serviceStates, type ServiceRow } from './checks/service-states.ts';
import { dsrHairpinWarnings, dsrServiceHook } from './service-dsr.ts';
import { k8sNames, type K8sRef } from './k8s/index.ts';
import { nodeAddress, type Confidence, type PluginId } from './platform/index.ts';
import { portCapacityRows, type PortCapacityRow } from './checks/port-capacity.ts';
import { routePrintRows } from '../parsers/routes/route-print-rows.ts';

export interface InspectCounts {
  networks: number | null;
  endpoints: number | null;
  localEndpoints: number | null;
  remoteEndpoints: number | null;
  loadBalancers: number | null;
  compartments: number | null;
  adapters: number | null;
  vfpPorts: number | null;
  vfpLayers: number | null;
  vfpRules: number | null;
  ipv4Routes: number | null;
}

export interface InspectFile {
  name: string;
  kind: string;
  encoding: string;
  issues: { line: number; severity: Severity; message: string }[];
  /** What output it was recognised as, how sure (0..1) and why (added in schema 1; absent for files only listed). */
  format?: string;
  confidence?: number;
  reason?: string;
  /** What it yielded, counted ("networks": 2, "rules": 14 …). */
  yields?: Record<string, number>;
}

/** Which network plugin and cloud built the node, how sure hnsight is and why (analysis/platform). */
export interface PlatformSummary {
  plugin: PluginId;
  label: string;
  cloud?: string;
  confidence: Confidence;
  podNetwork?: { name: string; type: string };
  evidence: { file: string; line: number; text: string; says: string }[];
  /** Evidence that points to another plugin. */
  conflicts: { file: string; line: number; text: string; says: string }[];
  /** The facts the checks used for this plugin, with their sources. */
  facts: { topic: string; fact: string; source: string }[];
  /** Checks that did not run here (they rely on another plugin's facts) and checks that only warn. */
  checks: { skipped: { id: string; title: string; reason: string }[]; hedged: string[] };
}

/** The node's objects with the Kubernetes names the kubectl snapshot gives them (`k8s` absent: unnamed). */
export interface InspectObjects {
  endpoints: { id: string; ip?: string; name: string; remote: boolean; providerAddress?: string; k8s?: K8sRef; providerNode?: string }[];
  loadBalancers: { id: string; vips: string[]; ports: { protocol: number; externalPort: number; internalPort: number }[]; dips: string[]; k8s?: K8sRef }[];
  /** Node addresses the bundle mentions (this node, route next hops, provider addresses, RemoteSubnetRoutes). */
  nodes: { ip: string; role: string[]; k8s?: K8sRef }[];
}

export interface InspectDocument {
  counts: InspectCounts;
  platform: PlatformSummary;
  files: InspectFile[];
  findings: Finding[];
  objects: InspectObjects;
  /** Core inputs the bundle lacks and what that prevents (empty for a full bundle). */
  missing: MissingInput[];
  /** Each Service port of the kubectl snapshot and whether this node realises it (empty without a snapshot). */
  services: ServiceRow[];
  /** Present when the Service rows were not worked out (over the analysis budget): `services` is then empty, not "none". */
  servicesNotEvaluated?: ServicesNotEvaluated;
  /** Room left in the dynamic port ranges (dynamicportrange.txt − excludedportrange.txt), arithmetic shown; empty without both files. */
  capacity: PortCapacityRow[];
}

export function countObjects(m: NodeModel): InspectCounts {
  const routes = m.routes;
  let ipv4Routes: number | null = null;
  if (routes) {
    const printed = routePrintRows(routes);
    // A file holding only Get-NetRoute output still says how many IPv4 routes there are.
    const netV4 = routes.netRoutes.filter((r) => !r.destinationPrefix.includes(':')).length;
    ipv4Routes = printed > 0 ? routes.ipv4Active.length : netV4;
    // route print always lists active routes (loopback at least): text with other parts of it but
    // none of those is an excerpt (only `Persistent Routes:` pasted) and does not say how many there are.
    if (printed > 0 && routes.ipv4Active.length === 0) ipv4Routes = netV4 > 0 ? netV4 : null;
  }
  return {
    networks: m.networks?.length ?? null,
    endpoints: m.endpoints?.length ?? null,
    localEndpoints: m.endpoints ? m.endpoints.filter((e) => !e.isRemote).length : null,
    remoteEndpoints: m.endpoints ? m.endpoints.filter((e) => e.isRemote).length : null,
    loadBalancers: m.loadBalancers?.length ?? null,
    // An ip file holding only Get-NetIPAddress / Get-NetIPInterface output has no ipconfig part to count.
    compartments: m.ip && m.ip.compartments.length > 0 ? m.ip.compartments.length : null,
    adapters: m.ip && m.ip.compartments.length > 0 ? m.ip.compartments.reduce((n, c) => n + c.adapters.length, 0) : null,
    vfpPorts: m.ports ? m.ports.length : null,
    vfpLayers: m.vfp ? m.vfp.totals.layers : null,
    vfpRules: m.vfp ? m.vfp.totals.rules : null,
    ipv4Routes,
  };
}

export function platformSummary(m: NodeModel): PlatformSummary {
  const plan = checkApplicability(m);
  const p = plan.platform;
  const ev = (e: { file: string; line: number; text: string; says: string }) => ({ file: e.file, line: e.line, text: e.text, says: e.says });
  return {
    plugin: p.plugin,
    label: p.label,
    cloud: p.cloud,
    confidence: p.confidence,
    podNetwork: p.podNetwork,
    evidence: p.evidence.map(ev),
    conflicts: p.conflicts.map(ev),
    facts: p.facts,
    checks: { skipped: plan.skipped, hedged: plan.hedged.map((c) => c.id) },
  };
}

export function inspectObjects(m: NodeModel): InspectObjects {
  const names = k8sNames(m);
  const epIp = new Map((m.endpoints ?? []).map((e) => [e.id.toLowerCase(), e.ip]));
  const nodes = new Map<string, Set<string>>();
  const addNode = (ip: string | undefined, role: string) => {
    if (!ip || !/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return;
    nodes.set(ip, (nodes.get(ip) ?? new Set()).add(role));
  };
  addNode(nodeAddress(m), 'this node');
  for (const n of m.networks ?? []) {
    for (const r of n.remoteSubnetRoutes) addNode(r.providerAddress, `provider address of ${r.destinationPrefix}`);
  }
  for (const e of m.endpoints ?? []) if (e.isRemote && e.providerAddress) addNode(e.providerAddress, 'provider address');
  for (const r of m.routes?.ipv4Active ?? []) if (/^\d/.test(r.gateway) && names.nodeLabel(r.gateway)) addNode(r.gateway, `next hop of ${r.destination}/${r.prefixLength ?? ''}`);
  for (const kn of m.k8s?.nodes ?? []) for (const a of kn.addresses) if (a.type === 'InternalIP' && nodes.has(a.address)) nodes.get(a.address)!.add('cluster node');
  return {
    endpoints: (m.endpoints ?? []).map((e) => ({ id: e.id, ip: e.ip, name: e.name, remote: e.isRemote, providerAddress: e.providerAddress, k8s: names.refOfIp(e.ip), providerNode: names.nodeLabel(e.providerAddress) })),
    loadBalancers: (m.loadBalancers ?? []).map((l) => ({ id: l.id, vips: l.vips, ports: l.ports.map((p) => ({ protocol: p.protocol, externalPort: p.externalPort, internalPort: p.internalPort })), dips: l.endpointIds.map((id) => epIp.get(id.toLowerCase()) ?? id), k8s: names.refOfLb(l) })),
    nodes: [...nodes.entries()].map(([ip, role]) => ({ ip, role: [...role], k8s: names.refOfIp(ip) })),
  };
}

export function inspectDocument(m: NodeModel, findings: Finding[] = [], serviceBudget: BudgetOptions = DEFAULT_BUDGET): InspectDocument {
  const svc = serviceRowsWithin(m, serviceBudget);
  return {
    counts: countObjects(m),
    platform: platformSummary(m),
    files: m.files.map((f) => {
      const out: InspectFile = {
        name: f.name,
        kind: f.kind,
        encoding: f.encoding,
        issues: f.issues.map((i) => ({ line: i.line, severity: i.severity, message: i.message })),
      };
      if (f.format !== undefined && f.kind !== 'known') {
        out.format = f.format;
        out.confidence = f.confidence;
        out.reason = f.reason;
      }
      if (f.yields) out.yields = f.yields;
      return out;
    }),
    findings,
    missing: missingInputs(m),
    objects: inspectObjects(m),
    services: svc.rows,
    ...(svc.notEvaluated ? { servicesNotEvaluated: svc.notEvaluated } : {}),
    capacity: portCapacityRows(m),
  };
}

/** Why the Service rows are absent though the bundle has a kubectl snapshot (`reason` is for scripts). */
export interface ServicesNotEvaluated {
  reason: 'over budget' | 'failed';
  /** The sentence inspect and the report print, in the checks' "not evaluated" wording. */
  message: string;
}

/** The Service rows, under the checks' budget of work: a hostile bundle gets none rather than a hang. */
export function serviceRowsOf(m: NodeModel): ServiceRow[] {
  return serviceRowsWithin(m).rows;
}

/**
 * The Service rows under a budget; over it (or failing), none and the sentence that says so — never a
 * silent empty list, which would read as "the snapshot has no Service".
 */
export function serviceRowsWithin(m: NodeModel, budget: BudgetOptions = DEFAULT_BUDGET): { rows: ServiceRow[]; notEvaluated?: ServicesNotEvaluated } {
  if (!m.k8s) return { rows: [] };
  try {
    return { rows: withBudget(new WorkBudget(budget), () => serviceRows(m)) };
  } catch (e) {
    const over = e instanceof OverBudgetError;
    const why = e instanceof Error ? e.message : String(e);
    return { rows: [], notEvaluated: { reason: over ? 'over budget' : 'failed', message: `Services: not evaluated: ${why}${over ? ' (the analysis budget ran out while holding the Service ports against the load balancers and VFP rules; no partial list is given)' : ''}.` } };
  }
}

/** The Service rows under the caller's budget (over it: thrown, for a caller that says so); DSR's rules included. */
export function serviceRows(m: NodeModel): ServiceRow[] {
  if (!m.k8s) return [];
  const ctx = checkContext(m);
  return dsrHairpinWarnings(ctx, serviceStates(ctx, dsrServiceHook(ctx)));
}
