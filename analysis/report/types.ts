// The report document: everything an export shows, as plain JSON. HTML, Markdown and PDF are
// renderings of it; `--out report.json` is this object as is (schema `hnsight-report/1`, README.md).
import type { InspectCounts, PlatformSummary } from '../inspect.ts';
import type { Severity } from '../../parsers/types.ts';
import type { Flow, HopKind, MatchedCondition, Proto, Verdict, WalkCaveat, WalkFinding, WalkResult } from '../walk/types.ts';
import type { NoteTarget } from './notes.ts';
import type { RedactionSummary } from '../redact/summary.ts';

export const REPORT_SCHEMA = 'hnsight-report/1';

export interface ReportNote {
  id: string;
  target: NoteTarget;
  /** What the note is on, in words (`hop 5 of TCP 10.244.1.5 → 10.96.0.10:53`, a finding's title, an object). */
  on: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

export interface ReportEvidence {
  file: string;
  line: number;
  /** The quoted lines from `line` on (a VFP rule block, or one line); empty when the text is not kept. */
  lines: string[];
}

export interface ReportHop {
  /** 0-based, as in note refs (`…#<index>`). */
  index: number;
  at: string;
  kind: HopKind;
  port?: string;
  direction?: 'IN' | 'OUT';
  layer?: string;
  group?: string;
  rule?: string;
  ruleType?: string;
  priority?: number;
  action: string;
  /** The rewrite in words (`dst → 10.244.2.7:8080, src MAC → …`); '' when none. */
  rewrite: string;
  inferred: boolean;
  /** The hop's flags in words: unmodelled, ambiguous, inferred, overridden, flow state. */
  flags: string[];
  /** Why the rule's effect is not modelled (the verdict then depends on it). */
  unmodelled?: string;
  /** Why the rule matched: each of its conditions against the packet (empty: the rule has none). */
  matchedBecause?: MatchedCondition[];
  note?: string;
  alternatives: string[];
  evidence?: ReportEvidence;
  /** This hop decided the verdict. */
  deciding: boolean;
  notes: ReportNote[];
}

export interface ReportTrace {
  /** `trace:<src>-<dst>[:port]/<proto>` (notes on hops use `<ref>#<hop>`). */
  ref: string;
  title: string;
  flow: Flow;
  verdict: Verdict;
  reason: string;
  final: { srcIp: string; dstIp: string; srcPort?: number; dstPort?: number; proto: Proto };
  egress: { nextHop?: string; interface?: string; encapDst?: string };
  /** The verdict's flags in words ("depends on an unmodelled rule", "some steps are inferred"). */
  flags: string[];
  caveats: WalkCaveat[];
  /** The findings on the path, each with the hop it concerns (analysis/walk/findings-on-path.ts). */
  findings: WalkFinding[];
  /** The worst of them, as the clause the verdict carries ("delivered, but …"). */
  verdictCaveat?: WalkResult['verdictCaveat'];
  hops: ReportHop[];
  /** The reply, walked as a packet of its own. */
  reply?: ReportReply;
  /** Notes on the walk as a whole. */
  notes: ReportNote[];
  /** The objects the packet crosses in order, with what happened on the way to the next one. */
  path: { kind: string; label: string; detail?: string; next?: string[] }[];
  /** Inline SVG: the path as a chain of the objects it crosses. */
  svg: string;
}

export interface ReportReply {
  verdict: Verdict;
  reason: string;
  final: { srcIp: string; dstIp: string; srcPort?: number; dstPort?: number; proto: Proto };
  egress: { nextHop?: string; interface?: string; encapDst?: string };
  flags: string[];
  caveats: WalkCaveat[];
  findings: WalkFinding[];
  verdictCaveat?: WalkResult['verdictCaveat'];
  hops: ReportHop[];
}

export interface ReportFinding {
  key: string;
  id: string;
  severity: Severity;
  title: string;
  explanation: string;
  fix: string;
  objects: string[];
  evidence: ReportEvidence[];
  undecided: boolean;
  notes: ReportNote[];
}

export interface ReportDocument {
  schema: typeof REPORT_SCHEMA;
  /** ISO time, or null when the caller did not give one (stable output for tests and diffs). */
  generatedAt: string | null;
  generator: string;
  title: string;
  summary: string;
  redacted: boolean;
  /** On a redacted report: what was replaced and what redaction cannot recognise. */
  redaction?: RedactionSummary;
  node: {
    hostName?: string;
    location: string;
    sourceKind: 'folder' | 'zip' | 'file';
    windowsBuild?: string;
    schemaVersion?: 1 | 2 | 'mixed';
    vfpGeneration?: string;
    collector?: string;
    networks: { name: string; type: string; subnets: string[] }[];
    /** The network plugin and cloud (evidence, facts used, checks not run). */
    platform: Pick<PlatformSummary, 'plugin' | 'label' | 'cloud' | 'confidence' | 'evidence' | 'checks'>;
    /** The node's Kubernetes name (kubectl Node object). */
    k8sNodeName?: string;
    counts: InspectCounts;
    filesRead: number;
    filesWithErrors: string[];
  };
  traces: ReportTrace[];
  findings: ReportFinding[];
  /** Each Service port of the kubectl snapshot and whether this node realises it (absent or empty: no snapshot). */
  services?: ReportServiceRow[];
  /** Why `services` is empty though there is a snapshot: the Service rows ran over the analysis budget. */
  servicesNotEvaluated?: string;
  /** Info findings left out (the report lists errors and warnings). */
  infoFindingsOmitted: number;
  /** Notes on the report, on objects, and on targets not in the report (a walk not exported). */
  notes: ReportNote[];
  topology: {
    svg: string;
    nodes: number;
    shown: number;
    /** True when only the chosen paths, their neighbours and the node's skeleton are drawn. */
    summarised: boolean;
  };
}

/** A Service port in the report: inspect's row (state, detail, evidence) with the Services table's columns. */
export interface ReportServiceRow {
  namespace: string;
  name: string;
  where: string;
  proto: string;
  state: string;
  detail: string;
  evidence: { file: string; line: number }[];
  /** The table's columns (analysis/view-models/services-table.ts); absent in reports written before them. */
  type?: string;
  vip?: string;
  ready?: number;
  hnsBackends?: number | null;
  externalTrafficPolicy?: string;
  internalTrafficPolicy?: string;
  /** The state as the table says it (with what is missing to decide). */
  stateText?: string;
  tone?: 'ok' | 'warn' | 'bad' | 'design' | 'unknown';
}
