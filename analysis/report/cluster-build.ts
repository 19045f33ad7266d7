// A cluster (several nodes' bundles) + chosen walks → the cluster report document: the nodes, the
// findings across nodes naming the odd nodes and the majority with their lines, and each walk across
// nodes as one stitched path — every hop under the node whose bundle it comes from, the hand-over
// between them, the findings of both nodes on it, and the reply. Pure and deterministic like build.ts.
import type { ClusterFinding, ClusterModel, StitchedFinding, StitchedWalk } from '../cluster/index.ts';
import { runClusterChecks, walkAcross, withAcrossFindings } from '../cluster/index.ts';
import { modelFindings } from '../view-models/findings.ts';
import { verdictFlags } from '../walk/format.ts';
import type { Flow, WalkResult } from '../walk/types.ts';
import { Redactor, redactionSummary, redactorSeed, type RedactionSummary, type RedactorSeed } from '../redact/index.ts';
import { evidence, reportHop } from './build.ts';
import type { ReportEvidence, ReportHop } from './types.ts';

export const CLUSTER_REPORT_SCHEMA = 'hnsight-cluster-report/1';

/** A hop of a stitched walk: the node's own hop (its evidence quoted from that node's bundle), or a hand-over. */
export interface ClusterReportHop extends Omit<ReportHop, 'kind' | 'notes'> {
  kind: ReportHop['kind'] | 'handover';
  node: string;
  bundle: string;
  leg: number;
}

export interface ClusterReportWalk {
  title: string;
  flow: Flow;
  verdict: WalkResult['verdict'];
  reason: string;
  flags: string[];
  verdictCaveat?: StitchedWalk['verdictCaveat'];
  /** The nodes the packet crossed, in order. */
  nodes: string[];
  handovers: StitchedWalk['handovers'];
  caveats: StitchedWalk['caveats'];
  findings: StitchedFinding[];
  hops: ClusterReportHop[];
  final: StitchedWalk['final'];
  reply?: Omit<ClusterReportWalk, 'reply' | 'title'>;
}

export interface ClusterReportFinding extends Omit<ClusterFinding, 'evidence'> {
  evidence: (ReportEvidence & { node: string })[];
}

export interface ClusterReportDocument {
  schema: typeof CLUSTER_REPORT_SCHEMA;
  generatedAt: string | null;
  generator: string;
  title: string;
  redacted: boolean;
  /** On a redacted report: what was replaced and what redaction cannot recognise. */
  redaction?: RedactionSummary;
  location: string;
  nodes: { id: string; host: string; bundle: string; platform: string; nodeIp?: string; providerAddress?: string; windowsBuild?: string; errors: number; warnings: number }[];
  /** Things a node believes about another that no open bundle confirms. */
  unresolved: { from: string; what: string; note?: string }[];
  findings: ClusterReportFinding[];
  walks: ClusterReportWalk[];
}

export interface ClusterReportOptions {
  /** The walks; default: the walks the findings across nodes show, then a pod of the first node to a pod of the second. */
  flows?: Flow[];
  location?: string;
  generatedAt?: string;
  redact?: boolean;
  generator?: string;
  /** Findings across nodes already computed (the app has them). */
  findings?: ClusterFinding[];
}

/** More walks than this are not drawn into one report (each is a table of tens of hops per node). */
const MAX_WALKS = 12;

function defaultFlows(c: ClusterModel, findings: ClusterFinding[]): Flow[] {
  const out: Flow[] = [];
  for (const f of findings) if (f.trace) out.push({ ...f.trace });
  const [a, b] = c.nodes;
  if (a && b && a.digest.localPods[0] && b.digest.localPods[0]) out.push({ srcIp: a.digest.localPods[0], dstIp: b.digest.localPods[0], dstPort: 80, proto: 'tcp' });
  return out;
}

const flowKey = (f: Flow) => `${f.srcIp}|${f.dstIp}|${f.dstPort ?? ''}|${f.proto}|${f.dip ?? ''}`;

function title(f: Flow): string {
  return `${f.proto.toUpperCase()} ${f.srcIp} → ${f.dstIp}${f.dstPort !== undefined ? `:${f.dstPort}` : ''}`;
}

function reportWalk(c: ClusterModel, w: StitchedWalk): Omit<ClusterReportWalk, 'title'> {
  const hops: ClusterReportHop[] = w.hops.map((h, i) => {
    const model = c.byId(h.node)?.model;
    if (h.kind === 'handover' || !model) {
      const ev = h.evidence && model ? evidence(model, h.evidence.file, h.evidence.line) : undefined;
      return { index: i, at: h.at, kind: h.kind, action: h.action, rewrite: '', inferred: !!h.inferred, flags: h.inferred ? ['inferred'] : [], alternatives: [], deciding: i === w.deciding, node: h.node, bundle: h.bundle, leg: h.leg, ...(h.note ? { note: h.note } : {}), ...(ev ? { evidence: ev } : {}) };
    }
    const { notes: _notes, ...hop } = reportHop(model, { ...h, kind: h.kind }, i, i === w.deciding);
    return { ...hop, node: h.node, bundle: h.bundle, leg: h.leg };
  });
  const out: Omit<ClusterReportWalk, 'title'> = {
    flow: w.flow,
    verdict: w.verdict,
    reason: w.reason,
    flags: verdictFlags({ dependsOnUnmodelled: w.dependsOnUnmodelled, inferred: w.inferred } as WalkResult),
    nodes: w.legs.map((l) => l.node),
    handovers: w.handovers,
    caveats: w.caveats,
    findings: w.findings ?? [],
    hops,
    final: w.final,
  };
  if (w.verdictCaveat) out.verdictCaveat = w.verdictCaveat;
  if (w.reply) {
    const { reply: _r, ...r } = reportWalk(c, w.reply) as ClusterReportWalk;
    out.reply = r;
  }
  return out;
}

export function buildClusterReport(c: ClusterModel, opts: ClusterReportOptions = {}): ClusterReportDocument {
  const across = opts.findings ?? runClusterChecks(c);
  const seen = new Set<string>();
  const flows = (opts.flows?.length ? opts.flows : defaultFlows(c, across)).filter((f) => !seen.has(flowKey(f)) && !!seen.add(flowKey(f))).slice(0, MAX_WALKS);
  const walks = flows.map((f) => ({ title: title(f), ...reportWalk(c, withAcrossFindings(c, walkAcross(c, f, { explain: true, reply: true }), across, modelFindings)) }));
  const quote = (e: ClusterFinding['evidence'][number]) => {
    const m = c.byId(e.node)?.model;
    return { ...(m ? evidence(m, e.file, e.line) : { file: e.file, line: e.line, lines: [] }), node: e.node };
  };
  const doc: ClusterReportDocument = {
    schema: CLUSTER_REPORT_SCHEMA,
    generatedAt: opts.generatedAt ?? null,
    generator: opts.generator ?? 'hnsight',
    title: `Cluster network report: ${c.nodes.length} Windows nodes`,
    redacted: !!opts.redact,
    location: opts.location ?? '',
    nodes: c.nodes.map((n) => ({ id: n.id, host: n.identity.host, bundle: n.bundle, platform: n.identity.platformLabel, nodeIp: n.identity.nodeIp, providerAddress: n.identity.providerAddress, windowsBuild: n.identity.windowsBuild, errors: n.digest.errors, warnings: n.digest.warnings })),
    unresolved: c.joins.filter((j) => !j.resolved).map((j) => ({ from: j.from, what: j.what, ...(j.note ? { note: j.note } : {}) })),
    findings: across.filter((f) => f.severity !== 'info').map((f) => ({ ...f, evidence: f.evidence.map(quote) })),
    walks,
  };
  if (!opts.redact) return doc;
  // One redactor over every node's values, so an address reads the same in every node's half.
  const known: Required<RedactorSeed> = { ips: [], macs: [], guids: [], hostnames: [] };
  for (const n of c.nodes) {
    if (!n.model) continue;
    const s = redactorSeed(n.model);
    for (const k of Object.keys(known) as (keyof RedactorSeed)[]) (known[k] as string[]).push(...(s[k] ?? []));
    (known.hostnames as string[]).push(n.identity.host, n.id);
  }
  const hidePaths = (w: Omit<ClusterReportWalk, 'title'>): Omit<ClusterReportWalk, 'title'> => ({ ...w, hops: w.hops.map((h) => ({ ...h, bundle: '(redacted)' })), ...(w.reply ? { reply: hidePaths(w.reply) } : {}) });
  const r = new Redactor(known);
  const out = r.redactDeep({ ...doc, location: '(redacted)', nodes: doc.nodes.map((n) => ({ ...n, bundle: '(redacted)' })), walks: doc.walks.map((w) => ({ ...w, ...hidePaths(w) })) });
  out.redacted = true;
  out.redaction = redactionSummary(r.stats());
  return out;
}
