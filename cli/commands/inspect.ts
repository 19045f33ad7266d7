// `hnsight inspect <bundle> [--json]`
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import { loadBundle } from '../../services/bundle/load.ts';
import { inspectDocument } from '../../analysis/inspect.ts';
import { formatInspectText } from '../format/inspect-text.ts';
import { CHECKS, runChecks } from '../../analysis/checks/index.ts';
import { ANALYSIS_BUDGET } from '../../services/analysis-budget.ts';
import { safeJson, safeText } from '../format/safe-text.ts';

export async function runInspect(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean', default: false }, verbose: { type: 'boolean', short: 'v', default: false } } });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const [target, ...extra] = parsed.positionals;
  if (!target) throw new UsageError('inspect needs a bundle folder, .zip or file');
  if (extra.length) throw new UsageError(`inspect takes one bundle, got also: ${extra.join(' ')}`);
  const showProgress = !parsed.values.json && process.stderr.isTTY;
  const model = await loadBundle(target, {
    onProgress: showProgress
      ? (p) => {
          if (p.phase === 'reading' && p.file) process.stderr.write(`\r\x1b[Kreading ${p.filesDone + 1}/${p.filesTotal} ${safeText(p.file)}`);
          if (p.phase === 'done') process.stderr.write('\r\x1b[K');
        }
      : undefined,
  });
  const doc = inspectDocument(model, runChecks(model, CHECKS, ANALYSIS_BUDGET));
  if (parsed.values.json) process.stdout.write(safeJson(doc) + '\n');
  else process.stdout.write(safeText(formatInspectText(model, doc, { verbose: parsed.values.verbose })));
  return doc.findings.some((f) => f.severity === 'error') ? 1 : 0;
}
