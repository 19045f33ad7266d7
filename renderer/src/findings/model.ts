// Findings as the panels show them: counts by severity, grouping by area, the file an undecided check
// was missing, and durations in words (the CNI timeline's rows are in timeline-rows.ts). Pure, unit-tested.
import type { FindingView } from '../../../analysis/findings/types.ts';
import type { FindingArea } from '../../../analysis/findings/types.ts';
import { plural } from '../lib/format.ts';

export type Severity = FindingView['severity'];
export const SEVERITIES: Severity[] = ['error', 'warning', 'info'];

export const AREA_LABEL: Record<FindingArea | 'other', string> = {
  hns: 'HNS',
  vfp: 'VFP',
  drift: 'HNS ↔ VFP drift',
  routes: 'Routes',
  dns: 'DNS',
  lb: 'Load balancers',
  node: 'Node',
  k8s: 'Kubernetes',
  cni: 'CNI config',
  logs: 'Logs',
  other: 'Other',
};

export interface SeverityCounts {
  error: number;
  warning: number;
  info: number;
  /** Info findings that are checks which could not decide. */
  undecided: number;
}

export function severityCounts(findings: readonly FindingView[] | undefined): SeverityCounts {
  const c: SeverityCounts = { error: 0, warning: 0, info: 0, undecided: 0 };
  for (const f of findings ?? []) {
    c[f.severity]++;
    if (f.undecided) c.undecided++;
  }
  return c;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export interface FindingGroup {
  area: string;
  title: string;
  findings: FindingView[];
  worst: Severity;
}

/** Findings of the shown severities grouped by area; groups by their worst finding, then by size. */
export function groupFindings(findings: readonly FindingView[], shown: ReadonlySet<Severity>): FindingGroup[] {
  const by = new Map<string, FindingView[]>();
  for (const f of findings) {
    if (!shown.has(f.severity)) continue;
    const k = f.area ?? 'other';
    const list = by.get(k) ?? [];
    list.push(f);
    by.set(k, list);
  }
  const groups: FindingGroup[] = [];
  for (const [area, list] of by) {
    // Undecided checks after the real findings of the same severity.
    list.sort((a, b) => RANK[a.severity] - RANK[b.severity] || Number(!!a.undecided) - Number(!!b.undecided));
    groups.push({ area, title: AREA_LABEL[area as FindingArea] ?? area, findings: list, worst: list[0].severity });
  }
  return groups.sort((a, b) => RANK[a.worst] - RANK[b.worst] || b.findings.length - a.findings.length || a.title.localeCompare(b.title));
}

/** The files an undecided check lacked (its evidence at line 0), else the ones it names. */
export function missingFiles(f: FindingView): string[] {
  const whole = f.evidence.filter((e) => e.line === 0).map((e) => e.file);
  return [...new Set(whole)];
}

export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 3 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** What the checks are doing, from the backend's step: which check, how many of how many. */
export function checksProgressText(p: { done: number; total: number; what?: string } | undefined): string {
  if (!p) return 'Running the checks…';
  if (!p.total) return p.what ? `Running the checks: ${p.what}…` : 'Running the checks…';
  if (p.done >= p.total) return `Running the checks: ${p.total} of ${p.total} done…`;
  return `Running the checks: ${p.what ?? 'check'} (${p.done + 1} of ${p.total})…`;
}

/** A severity chip's words: "1 error", "2 errors", "0 info" (info is not counted as a plural). */
export function severityCountText(n: number, severity: 'error' | 'warning' | 'info'): string {
  return severity === 'info' ? `${n.toLocaleString('en-US')} info` : plural(n, severity);
}

/** Evidence lines a finding shows before "N more" (the rest one click away). */
export const EVIDENCE_SHOWN = 5;

/** The evidence lines to show now and how many are left behind "N more". */
export function evidenceShown<T>(lines: readonly T[], expanded: boolean, first = EVIDENCE_SHOWN): { shown: readonly T[]; more: number } {
  // Hiding a single line behind a button saves nothing: show it.
  if (expanded || lines.length <= first + 1) return { shown: lines, more: 0 };
  return { shown: lines.slice(0, first), more: lines.length - first };
}
