// The `hnsight inspect --json` document (DESIGN.md §3): counts of every object kind, the files read,
// and the findings. A count whose source file is missing is null, never 0.
import type { NodeModel } from '../parsers/model/types.ts';
import type { Severity } from '../parsers/types.ts';
import { missingInputs, type MissingInput } from './missing.ts';

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

export interface FindingEvidence {
  file: string;
  /** 1-based; 0 when the evidence is the file as a whole (or its absence). */
  line: number;
  text: string;
}

/** What part of the node a finding is about (the UI groups and filters by it). */
export type FindingArea = 'hns' | 'vfp' | 'drift' | 'routes' | 'dns' | 'lb' | 'node' | 'k8s' | 'cni' | 'logs';

export interface Finding {
  id: string;
  severity: Severity;
  title: string;
  explanation: string;
  fix: string;
  objects: string[];
  evidence: FindingEvidence[];
  area?: FindingArea;
  /** A flow the packet walk can open at to show the problem (pod → destination). */
  trace?: { srcIp: string; dstIp: string; dstPort?: number; proto: 'tcp' | 'udp' | 'icmp' };
  /** True when the check could not decide (a file is missing or cut); the explanation says which. */
  undecided?: boolean;
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

export interface InspectDocument {
  counts: InspectCounts;
  files: InspectFile[];
  findings: Finding[];
  /** Core inputs the bundle lacks and what that prevents (empty for a full bundle). */
  missing: MissingInput[];
}

export function countObjects(m: NodeModel): InspectCounts {
  const routes = m.routes;
  let ipv4Routes: number | null = null;
  if (routes) {
    const printed = routes.ipv4Active.length + routes.ipv4Persistent.length + routes.interfaces.length + routes.ipv6Active.length;
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

export function inspectDocument(m: NodeModel, findings: Finding[] = []): InspectDocument {
  return {
    counts: countObjects(m),
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
  };
}
