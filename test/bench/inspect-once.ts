// One measured `inspect` and report of a bundle in a fresh process, timed the way a user waits for
// them: the load (parse and join), every check, the inspect document as the CLI prints it (JSON), then
// the HTML report of the same model (with the findings it carries). Peak RSS is this process's.
// Prints one JSON line: { inspectMs, loadMs, checksMs, documentMs, reportMs, inspectPeakRssBytes, findings }
// (reportMs: what `hnsight report` waits for, the load, the checks and the report built from them).
import { peakRssBytes as peakRss } from '../helpers/peak-rss.ts';
import { loadBundle } from '../../services/bundle/load.ts';
import { CHECKS, runChecks } from '../../analysis/checks/index.ts';
import { ANALYSIS_BUDGET } from '../../services/analysis-budget.ts';
import { inspectDocument } from '../../analysis/inspect.ts';
import { reportHtml } from '../../services/export/export.ts';
import { findingViews } from '../../analysis/view-models/findings.ts';

const target = process.argv[2];
const t0 = performance.now();
const model = await loadBundle(target);
const t1 = performance.now();
// Under the budget `hnsight inspect` gives its checks.
const findings = runChecks(model, CHECKS, ANALYSIS_BUDGET);
const t2 = performance.now();
const json = JSON.stringify(inspectDocument(model, findings), null, 2);
const t3 = performance.now();
const inspectPeakRssBytes = peakRss();
const html = reportHtml(model, { findings: findingViews(model, findings), generatedAt: new Date(0).toISOString() });
const t4 = performance.now();
process.stdout.write(
  JSON.stringify({
    inspectMs: t3 - t0,
    loadMs: t1 - t0,
    checksMs: t2 - t1,
    documentMs: t3 - t2,
    reportMs: t2 - t0 + (t4 - t3),
    inspectPeakRssBytes,
    findings: findings.length,
    documentBytes: json.length,
    reportBytes: html.length,
  }) + '\n',
);
