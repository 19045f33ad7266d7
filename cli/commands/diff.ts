// `hnsight diff <bundleA> <bundleB> [--reach] [--json]` — exit 0 whether or not they differ, 2 on bad
// usage or an unreadable bundle. --reach compares what each pod and the host can reach (analysis/reach).
import { UsageError } from '../errors.ts';
import { parseFlags } from '../args.ts';
import { loadBundle } from '../../services/bundle/load.ts';
import { CHECKS, runChecks } from '../../analysis/checks/index.ts';
import { ANALYSIS_BUDGET } from '../../services/analysis-budget.ts';
import { diffModels, formatDiff } from '../../analysis/diff/index.ts';
import { writeWrapped } from '../format/wrap.ts';
import { safeJson, safeText } from '../format/safe-text.ts';
import { diffReach, formatReachDiff } from '../../analysis/reach/index.ts';
import { modelFindings } from '../../analysis/view-models/findings.ts';

export async function runDiff(argv: string[]): Promise<number> {
  const parsed = parseFlags('diff', argv, { json: { type: 'boolean', default: false }, reach: { type: 'boolean', default: false } });
  const [a, b, ...extra] = parsed.positionals;
  if (!a || !b) throw new UsageError('diff needs two bundles: diff <A> <B>');
  if (extra.length) throw new UsageError(`diff takes two bundles, got also: ${extra.join(' ')}`);
  const [ma, mb] = await Promise.all([loadBundle(a), loadBundle(b)]);
  if (parsed.values.reach) {
    // The findings on each class's path are part of what is compared (a fault that keeps the verdict).
    const r = diffReach(ma, mb, { findings: { before: modelFindings(ma), after: modelFindings(mb) } });
    process.stdout.write(parsed.values.json ? safeJson(r) + '\n' : safeText(formatReachDiff(r)));
    return 0;
  }
  const d = diffModels(ma, mb, { findingsA: runChecks(ma, CHECKS, ANALYSIS_BUDGET), findingsB: runChecks(mb, CHECKS, ANALYSIS_BUDGET) });
  if (parsed.values.json) process.stdout.write(safeJson(d) + '\n');
  else writeWrapped(process.stdout, safeText(formatDiff(d)));
  return 0;
}
