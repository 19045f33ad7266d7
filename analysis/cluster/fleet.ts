// The fleet summary: one line per node (platform, build, counts, errors, warnings, CNI ADD p50/p99),
// the outliers by each measure, the findings most nodes share (a cluster-wide misconfiguration) and the
// ones only a few have, and the cross-node consistency findings — all from the per-node digests, so a
// run over hundreds of bundles holds one model at a time.
//
// Outliers by a number: robust, from the median and the median absolute deviation (MAD, scaled by
// 1.4826 to compare with a standard deviation), so one broken node among 500 cannot move the baseline:
// a node is high when its value exceeds median + max(3·1.4826·MAD, a floor that ignores small absolute
// differences). Measures with fewer than three values are not judged.
import type { InspectCounts } from '../inspect.ts';
import type { Finding } from '../findings/types.ts';
import { buildClusterModel } from './build.ts';
import { runClusterChecks, type ClusterFinding } from './checks/index.ts';
import type { NodeDigest } from './digest.ts';

export interface FleetNode {
  host: string;
  bundle: string;
  platform: string;
  windowsBuild: string | null;
  counts: InspectCounts;
  errors: number;
  warnings: number;
  cniAddP50Ms: number | null;
  cniAddP99Ms: number | null;
}

export interface FleetOutlier {
  /** What is compared: `errors`, `counts.vfpRules`, `cniAddP99Ms`, a finding id, a cross-node check id. */
  measure: string;
  kind: 'high' | 'low' | 'missing' | 'finding' | 'consistency';
  nodes: string[];
  /** The node values, for numbers. */
  values?: { host: string; value: number | null }[];
  median?: number;
  detail: string;
  severity?: Finding['severity'];
}

export interface FleetCommon {
  id: string;
  severity: Finding['severity'];
  title: string;
  /** How many nodes have it, of how many. */
  nodes: number;
  of: number;
  /** On every node: a cluster-wide misconfiguration, not a broken node. */
  all: boolean;
}

export interface FleetSummary {
  nodes: FleetNode[];
  outliers: FleetOutlier[];
  common: FleetCommon[];
  /** The cross-node findings (analysis/cluster/checks) over the same digests. */
  consistency: ClusterFinding[];
  failed: { bundle: string; error: string }[];
}

export function fleetNode(d: NodeDigest): FleetNode {
  return {
    host: d.id,
    bundle: d.bundle,
    platform: d.identity.platformLabel,
    windowsBuild: d.versions.windows ?? null,
    counts: d.counts,
    errors: d.errors,
    warnings: d.warnings,
    cniAddP50Ms: d.cniAddP50Ms,
    cniAddP99Ms: d.cniAddP99Ms,
  };
}

/** The median, undefined for no values. */
const median = (xs: number[]): number | undefined => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  const hi = s[m];
  const lo = s[m - 1];
  if (hi === undefined) return undefined;
  return s.length % 2 || lo === undefined ? hi : (lo + hi) / 2;
};

interface Measure {
  name: string;
  get: (d: NodeDigest) => number | null;
  /** Differences below this are not outliers (a few rules, a few milliseconds). */
  floor: (median: number) => number;
  low: boolean;
  unit: string;
}

const COUNT_FLOOR = (m: number) => Math.max(2, 0.2 * m);
const MEASURES: Measure[] = [
  { name: 'errors', get: (d) => d.errors, floor: () => 1, low: false, unit: 'error findings' },
  { name: 'warnings', get: (d) => d.warnings, floor: () => 2, low: false, unit: 'warning findings' },
  { name: 'cniAddP99Ms', get: (d) => d.cniAddP99Ms, floor: (m) => Math.max(1000, m), low: false, unit: 'ms (CNI ADD p99)' },
  { name: 'cniAddP50Ms', get: (d) => d.cniAddP50Ms, floor: (m) => Math.max(500, m), low: false, unit: 'ms (CNI ADD p50)' },
  ...(['endpoints', 'remoteEndpoints', 'loadBalancers', 'vfpPorts', 'vfpRules', 'ipv4Routes'] as const).map((k) => ({ name: `counts.${k}`, get: (d: NodeDigest) => d.counts[k], floor: COUNT_FLOOR, low: true, unit: k })),
];

function numericOutliers(ds: NodeDigest[]): FleetOutlier[] {
  const out: FleetOutlier[] = [];
  for (const m of MEASURES) {
    const vals = ds.map((d) => ({ host: d.id, value: m.get(d) }));
    const known = vals.filter((v): v is { host: string; value: number } => v.value !== null);
    // A count some nodes have and others lack (the file is missing from their bundle).
    if (m.name.startsWith('counts.') && known.length * 2 > vals.length && known.length < vals.length) {
      const miss = vals.filter((v) => v.value === null).map((v) => v.host);
      out.push({ measure: m.name, kind: 'missing', nodes: miss, detail: `${miss.length} node${miss.length > 1 ? 's' : ''} cannot say (${m.unit}: the file that holds them is missing from the bundle)` });
    }
    if (known.length < 3) continue;
    const med = median(known.map((v) => v.value));
    if (med === undefined) continue;
    const mad = (median(known.map((v) => Math.abs(v.value - med))) ?? 0) * 1.4826;
    const band = Math.max(3 * mad, m.floor(med));
    const high = known.filter((v) => v.value > med + band);
    const low = m.low ? known.filter((v) => v.value < med - band) : [];
    if (high.length) out.push({ measure: m.name, kind: 'high', nodes: high.map((v) => v.host), values: high, median: med, detail: `${high.map((v) => `${v.host} ${v.value}`).join(', ')} ${m.unit}; the median node has ${med}` });
    if (low.length) out.push({ measure: m.name, kind: 'low', nodes: low.map((v) => v.host), values: low, median: med, detail: `${low.map((v) => `${v.host} ${v.value}`).join(', ')} ${m.unit}; the median node has ${med}` });
  }
  return out;
}

/** Finding ids on most nodes (common) or on a few (outliers). */
function findingSpread(ds: NodeDigest[]): { common: FleetCommon[]; few: FleetOutlier[] } {
  const by = new Map<string, { severity: Finding['severity']; title: string; nodes: string[] }>();
  for (const d of ds) for (const f of d.findings) {
    const g = by.get(f.id) ?? { severity: f.severity, title: f.title, nodes: [] };
    g.nodes.push(d.id);
    if (f.severity === 'error') g.severity = 'error';
    else if (f.severity === 'warning' && g.severity === 'info') g.severity = 'warning';
    by.set(f.id, g);
  }
  const common: FleetCommon[] = [];
  const few: FleetOutlier[] = [];
  const rank = { error: 0, warning: 1, info: 2 } as const;
  for (const [id, g] of [...by].sort((a, b) => rank[a[1].severity] - rank[b[1].severity] || b[1].nodes.length - a[1].nodes.length || (a[0] < b[0] ? -1 : 1))) {
    if (g.nodes.length * 2 > ds.length || ds.length === 1) common.push({ id, severity: g.severity, title: g.title, nodes: g.nodes.length, of: ds.length, all: g.nodes.length === ds.length });
    else if (g.severity !== 'info') few.push({ measure: id, kind: 'finding', nodes: g.nodes, severity: g.severity, detail: `${g.severity} on ${g.nodes.length} of ${ds.length} nodes: ${g.title}` });
  }
  return { common, few };
}

export function summarizeFleet(ds: NodeDigest[], failed: FleetSummary['failed'] = []): FleetSummary {
  const cluster = buildClusterModel(ds.map((digest) => ({ digest })));
  const consistency = runClusterChecks(cluster);
  // A second bundle of a node is counted once (cluster-duplicate-bundle says which).
  const kept = new Set(cluster.nodes.map((n) => n.digest));
  ds = ds.filter((d) => kept.has(d));
  const { common, few } = findingSpread(ds);
  const outliers: FleetOutlier[] = [
    ...consistency.filter((f) => f.nodes.odd.length && f.severity !== 'info').map((f) => ({ measure: f.id, kind: 'consistency' as const, nodes: f.nodes.odd, severity: f.severity, detail: f.title })),
    ...few,
    // Counts differ between clusters by design (their Services, their pods): nodes are measured against their own cluster.
    ...cluster.parts.flatMap((p) => numericOutliers(p.nodes.map((n) => n.digest))),
  ];
  return { nodes: ds.map(fleetNode), outliers, common, consistency, failed };
}
