// NodeModel + chosen walks + notes → the report document (types.ts). Pure and deterministic: the
// same inputs give the same document byte for byte (no clock unless `generatedAt` is given), so it
// is golden-tested and two reports of one bundle can be diffed.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { Flow, WalkHop, WalkResult } from '../walk/types.ts';
import type { TopologyGraph } from '../view-models/types.ts';
import type { FindingView } from '../findings/types.ts';
import { countObjects, platformSummary, serviceRowsWithin } from '../inspect.ts';
import { walkFlow } from '../walk/engine.ts';
import { hopFlags, verdictFlags } from '../walk/format.ts';
import { walkPresets } from '../walk/presets.ts';
import { modelFindings } from '../view-models/findings.ts';
import { withPathFindings } from '../walk/findings-on-path.ts';
import { buildTopology } from '../topology.ts';
import { k8sNames, withPod, withService } from '../k8s/index.ts';
import { withNames } from '../k8s/name-walk.ts';
import { Redactor, redactionSummary, redactorSeed } from '../redact/index.ts';
import type { Note, Notes } from './notes.ts';
import { parseTraceRef, traceRef } from './notes.ts';
import { REPORT_SCHEMA, type ReportDocument, type ReportEvidence, type ReportFinding, type ReportHop, type ReportNote, type ReportTrace } from './types.ts';
import { chainSteps, pathColor, pathSvg, topologySvg } from './svg.ts';
import { reportServices } from './services-section.ts';
import type { BudgetOptions } from '../budget.ts';

export interface ReportOptions {
  /** The walks to show; default: the notes' walks, else the presets (pod → pod, → service, → outside). */
  flows?: Flow[];
  /** No walk at all: the user unticked every walk they had added (an empty `flows` alone means the default). */
  noWalks?: boolean;
  notes?: Notes;
  /** ISO time written in the report; default none (stable output). */
  generatedAt?: string;
  redact?: boolean;
  /** The Service rows' budget of work (default: the checks' DEFAULT_BUDGET). */
  serviceBudget?: BudgetOptions;
  /** Findings already computed (the app has them); default: the checks, run once per model. */
  findings?: FindingView[];
  topology?: TopologyGraph;
  /** Above this many objects the topology picture is summarised (default 100). */
  maxGraphNodes?: number;
  generator?: string;
}

const EVIDENCE_MAX_LINES = 30;
const BLOCK_START = /^\s*(RULE|GROUP|LAYER|Policy for port)\s*:/i;

export function buildReport(m: NodeModel, opts: ReportOptions = {}): ReportDocument {
  const notes = opts.notes;
  const flows = opts.noWalks ? [] : opts.flows?.length ? opts.flows : notes?.traces.length ? notes.traces : walkPresets(m).map((p) => p.flow);
  const graph = opts.topology ?? buildTopology(m);
  const aliases = portAliases(m, graph);
  const allFindings = opts.findings ?? modelFindings(m);
  const shown = allFindings.filter((f) => f.severity !== 'info');
  // Each walk meets the findings on its path: they show on its hops and beside its verdict.
  const results = dedupeFlows(flows).map((f) => withPathFindings(m, withNames(m, walkFlow(m, f, { explain: true, reply: true })), allFindings));

  const traces: ReportTrace[] = results.map((t, i) => {
    const color = pathColor(i);
    const steps = chainSteps(t, graph, aliases);
    return {
      ref: traceRef(t.flow),
      title: traceTitle(m, t),
      flow: t.flow,
      verdict: t.verdict,
      reason: t.reason,
      final: t.final,
      egress: t.egress,
      flags: verdictFlags(t),
      caveats: t.caveats ?? [],
      findings: t.findings ?? [],
      ...(t.verdictCaveat ? { verdictCaveat: t.verdictCaveat } : {}),
      hops: t.hops.map((h, j) => reportHop(m, h, j, j === t.deciding)),
      ...(t.reply
        ? {
            reply: {
              verdict: t.reply.verdict,
              reason: t.reply.reason,
              final: t.reply.final,
              egress: t.reply.egress,
              flags: verdictFlags(t.reply),
              caveats: t.reply.caveats ?? [],
              findings: t.reply.findings ?? [],
              ...(t.reply.verdictCaveat ? { verdictCaveat: t.reply.verdictCaveat } : {}),
              hops: t.reply.hops.map((h, j) => reportHop(m, h, j, j === t.reply!.deciding)),
            },
          }
        : {}),
      notes: [],
      path: steps,
      svg: pathSvg(t, steps, color, `p${i}`),
    };
  });
  const findings: ReportFinding[] = shown.map((f) => ({
    key: f.key,
    id: f.id,
    severity: f.severity,
    title: f.title,
    explanation: f.explanation,
    fix: f.fix,
    objects: f.objects,
    evidence: f.evidence.map((e) => ({ file: e.file, line: e.line, lines: e.text ? [e.text] : [] })),
    undecided: !!f.undecided,
    notes: [],
  }));

  const loose: ReportNote[] = [];
  for (const n of [...(notes?.notes ?? [])].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))) {
    placeNote(n, traces, findings, allFindings, graph, loose);
  }

  const topo = topologySvg(graph, {
    paths: results.map((t, i) => ({ nodes: t.path, label: `${i + 1}. ${traceTitle(m, t)} — ${t.verdict}${t.verdictCaveat ? ` (${t.verdictCaveat.severity} on the path)` : ''}`, color: pathColor(i) })),
    aliases,
    maxNodes: opts.maxGraphNodes,
  });

  const doc: ReportDocument = {
    schema: REPORT_SCHEMA,
    generatedAt: opts.generatedAt ?? null,
    generator: opts.generator ?? 'hnsight',
    title: notes?.title.trim() || `Network report for ${m.meta.hostName ?? 'a Windows node'}`,
    summary: notes?.summary ?? '',
    redacted: !!opts.redact,
    node: {
      hostName: m.meta.hostName,
      location: m.source.location,
      sourceKind: m.source.kind,
      windowsBuild: m.meta.windowsBuild,
      schemaVersion: m.meta.schemaVersion,
      vfpGeneration: m.meta.vfpGeneration,
      collector: m.meta.collector,
      networks: (m.networks ?? []).map((n) => ({ name: n.name, type: n.type, subnets: n.subnets.map((s) => s.prefix) })),
      platform: (({ plugin, label, cloud, confidence, evidence, checks }) => ({ plugin, label, cloud, confidence, evidence: evidence.filter((e) => e.file).slice(0, 4), checks }))(platformSummary(m)),
      k8sNodeName: k8sNames(m).thisNode?.name,
      counts: countObjects(m),
      filesRead: m.files.filter((f) => f.used).length,
      filesWithErrors: m.files.filter((f) => f.issues.some((i) => i.severity === 'error')).map((f) => f.name),
    },
    traces,
    findings,
    // Only with a kubectl snapshot: a report without one keeps its shape.
    ...(m.k8s ? ((s) => ({ services: reportServices(m, s.rows), ...(s.notEvaluated ? { servicesNotEvaluated: s.notEvaluated.message } : {}) }))(serviceRowsWithin(m, opts.serviceBudget)) : {}),
    infoFindingsOmitted: allFindings.length - shown.length,
    notes: loose,
    topology: { svg: topo.svg, nodes: topo.nodes, shown: topo.shown, summarised: topo.summarised },
  };
  return opts.redact ? redactReport(m, doc) : doc;
}

/** Replaces addresses, MACs, GUIDs and host names everywhere in the document (the bundle path too). */
export function redactReport(m: NodeModel, doc: ReportDocument): ReportDocument {
  const r = new Redactor(redactorSeed(m));
  const out = r.redactDeep({ ...doc, node: { ...doc.node, location: '(redacted)' } });
  out.redacted = true;
  out.redaction = redactionSummary(r.stats());
  return out;
}

function dedupeFlows(flows: Flow[]): Flow[] {
  const seen = new Set<string>();
  return flows.filter((f) => {
    const k = `${traceRef(f)}|${f.srcPort ?? ''}|${f.dip ?? ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A local endpoint is drawn as one node with its VFP port: walks naming the port light the endpoint. */
function portAliases(m: NodeModel, g: TopologyGraph): Map<string, string> {
  const ids = new Set(g.nodes.map((n) => n.id));
  const out = new Map<string, string>();
  for (const p of m.ports ?? []) {
    const pid = `port:${p.key}`;
    if (ids.has(pid) || !p.endpointId) continue;
    const eid = `endpoint:${p.endpointId.toLowerCase()}`;
    if (ids.has(eid)) out.set(pid, eid);
  }
  return out;
}

export function traceTitle(m: NodeModel, t: Pick<WalkResult, 'flow'>): string {
  const f = t.flow;
  const isVip = (m.loadBalancers ?? []).some((l) => l.vips.includes(f.dstIp));
  const proto = f.proto === 'udp' ? 17 : f.proto === 'tcp' ? 6 : undefined;
  const dst = isVip ? withService(m, f.dstIp, f.dstPort, proto) : `${withPod(m, f.dstIp)}${f.dstPort !== undefined ? `:${f.dstPort}` : ''}`;
  return `${f.proto.toUpperCase()} ${withPod(m, f.srcIp)} → ${dst}`;
}

function rewriteText(h: WalkHop): string {
  const r = h.rewrite;
  if (!r) return '';
  const parts: string[] = [];
  if (r.dstIp || r.dstPort !== undefined) parts.push(`dst → ${r.dstIp ?? h.before?.dstIp ?? ''}${r.dstPort !== undefined ? `:${r.dstPort}` : ''}`);
  if (r.srcIp || r.srcPort !== undefined) parts.push(`src → ${r.srcIp ?? h.before?.srcIp ?? ''}${r.srcPort !== undefined ? `:${r.srcPort}` : ''}`);
  if (r.srcMac) parts.push(`src MAC → ${r.srcMac}`);
  if (r.dstMac) parts.push(`dst MAC → ${r.dstMac}`);
  if (r.encap) parts.push(`${r.encap.type} to ${r.encap.dstIp}${r.encap.vni !== undefined ? ` VNI ${r.encap.vni}` : ''}`);
  return parts.join(', ');
}

export function reportHop(m: NodeModel, h: WalkHop, index: number, deciding: boolean): ReportHop {
  const hop: ReportHop = {
    index,
    at: h.at,
    kind: h.kind,
    action: h.action,
    rewrite: rewriteText(h),
    inferred: !!h.inferred,
    flags: hopFlags(h),
    alternatives: h.alternatives ?? [],
    deciding,
    notes: [],
  };
  if (h.port !== undefined) hop.port = h.port;
  if (h.direction !== undefined) hop.direction = h.direction;
  if (h.layer !== undefined) hop.layer = h.layer;
  if (h.group !== undefined) hop.group = h.group;
  if (h.rule !== undefined) hop.rule = h.rule;
  if (h.ruleType !== undefined) hop.ruleType = h.ruleType;
  if (h.priority !== undefined) hop.priority = h.priority;
  if (h.note !== undefined) hop.note = h.note;
  if (h.unmodelled !== undefined) hop.unmodelled = h.unmodelled;
  if (h.matchedBecause !== undefined) hop.matchedBecause = h.matchedBecause;
  if (h.evidence) hop.evidence = evidence(m, h.evidence.file, h.evidence.line);
  return hop;
}

/** The quoted lines behind a hop: a whole VFP rule block, or the one line. */
export function evidence(m: NodeModel, file: string, line: number): ReportEvidence {
  const t = m.text;
  const lines: string[] = [];
  const first = line > 0 && t?.has(file) ? t.lineText(file, line) : undefined;
  if (first !== undefined) {
    lines.push(first.trimEnd());
    if (/^\s*RULE\s*:/i.test(first)) {
      // One walk forward from the rule's line: looking each line up on its own costs a search of the
      // dump per line (a 900 MB VFP dump has no line table).
      t!.find(file, line + 1, (s) => {
        if (!s.trim() || BLOCK_START.test(s)) return true;
        lines.push(s.trimEnd());
        return false;
      }, EVIDENCE_MAX_LINES - 1);
    }
  }
  return { file, line, lines };
}

function placeNote(n: Note, traces: ReportTrace[], findings: ReportFinding[], all: FindingView[], g: TopologyGraph, loose: ReportNote[]): void {
  const base = { id: n.id, target: n.target, text: n.text, createdAt: n.createdAt, updatedAt: n.updatedAt };
  const ref = n.target.ref;
  if (n.target.kind === 'hop' || ref.startsWith('trace:')) {
    const p = parseTraceRef(ref);
    const t = p && traces.find((x) => x.ref === p.trace);
    const hop = t && p?.hop !== undefined ? t.hops[p.hop] : undefined;
    if (t && p?.hop !== undefined && hop) {
      hop.notes.push({ ...base, on: `hop ${p.hop + 1} of ${t.title}` });
      return;
    }
    if (t) {
      t.notes.push({ ...base, on: t.title });
      return;
    }
    loose.push({ ...base, on: `walk ${p?.trace.slice(6) ?? ref}${p?.hop !== undefined ? `, hop ${p.hop + 1}` : ''} (not in this report)` });
    return;
  }
  if (n.target.kind === 'finding') {
    const key = ref.replace(/^finding:/, '');
    const f = findings.find((x) => x.key === key);
    if (f) {
      f.notes.push({ ...base, on: f.title });
      return;
    }
    const any = all.find((x) => x.key === key);
    loose.push({ ...base, on: any ? `finding: ${any.title}` : `finding ${key} (not found in this bundle)` });
    return;
  }
  if (n.target.kind === 'object') {
    const id = ref.replace(/^object:/, '');
    const node = g.nodes.find((x) => x.id === id || (x.ref && `${x.ref.type}:${x.ref.id}` === id));
    loose.push({ ...base, on: node ? `${node.kind} ${node.label}` : id.replace(':', ' ') });
    return;
  }
  loose.push({ ...base, on: 'report' });
}
