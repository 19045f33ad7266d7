// One measured `inspect` and report of a bundle in a fresh process, timed the way a user waits for
// them: the load (parse and join), every check, the inspect document as the CLI prints it (JSON), then
// the HTML report of the same model (with the findings it carries). Peak RSS is this process's.
// Prints one JSON line: { inspectMs, loadMs, checksMs, documentMs, reportMs, inspectPeakRssBytes, findings, … }
// (reportMs: what `hnsight report` waits for, the load, the checks and the report built from them).
// CPU time beside the wall clock (this process, all threads: on a shared machine it is what compares):
// loadCpuMs, checksCpuMs, documentCpuMs, and checkCpuMs, each check's own (the first check to read the
// pod ports' rules pays for parsing them, port-rules.ts).
import { peakRssBytes as peakRss } from '../helpers/peak-rss.ts';
import { loadBundle } from '../../services/bundle/load.ts';
import { CHECKS, runChecks } from '../../analysis/checks/index.ts';
import { ANALYSIS_BUDGET } from '../../services/analysis-budget.ts';
import { inspectDocument } from '../../analysis/inspect.ts';
import { reportHtml } from '../../services/export/export.ts';
import { findingViews } from '../../analysis/view-models/findings.ts';

const target = process.argv[2];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const t0 = performance.now();
const c0 = cpu();
const model = await loadBundle(target);
const t1 = performance.now();
const c1 = cpu();
// Under the budget `hnsight inspect` gives its checks; each check's CPU time from one progress call to the next.
const checkCpuMs: Record<string, number> = {};
let running: { check: string; at: number } | undefined;
const findings = runChecks(model, CHECKS, ANALYSIS_BUDGET, {
  onProgress: (p) => {
    const now = cpu();
    if (running) checkCpuMs[running.check] = Math.round(now - running.at);
    running = p.check ? { check: p.check, at: now } : undefined;
  },
});
const t2 = performance.now();
const c2 = cpu();
const json = JSON.stringify(inspectDocument(model, findings), null, 2);
const t3 = performance.now();
const c3 = cpu();
const inspectPeakRssBytes = peakRss();
const html = reportHtml(model, { findings: findingViews(model, findings), generatedAt: new Date(0).toISOString() });
const t4 = performance.now();
process.stdout.write(
  JSON.stringify({
    inspectMs: t3 - t0,
    loadMs: t1 - t0,
    checksMs: t2 - t1,
    documentMs: t3 - t2,
    loadCpuMs: Math.round(c1 - c0),
    checksCpuMs: Math.round(c2 - c1),
    documentCpuMs: Math.round(c3 - c2),
    checkCpuMs,
    reportMs: t2 - t0 + (t4 - t3),
    inspectPeakRssBytes,
    findings: findings.length,
    documentBytes: json.length,
    reportBytes: html.length,
  }) + '\n',
);
