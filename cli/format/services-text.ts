// `hnsight inspect`'s Services section: how many Service ports of the kubectl snapshot this node
// realises, and each one it does not, with what was found and where (--verbose: every port).
import type { InspectDocument } from '../../analysis/inspect.ts';
import { plural } from '../../parsers/text/quantities.ts';

export function formatServicesText(doc: InspectDocument, opts: { verbose: boolean }, wrap: (text: string, indent: number) => string[]): string[] {
  const rows = doc.services ?? [];
  // Over the analysis budget: said (an absent section would read as "no Service in the snapshot").
  if (!rows.length && doc.servicesNotEvaluated) return ['', ...wrap(doc.servicesNotEvaluated.message, 0)];
  if (!rows.length) return [];
  const bad = rows.filter((r) => r.state !== 'realised');
  const warned = rows.filter((r) => r.warning).length;
  const out = ['', `services: ${rows.length - bad.length} of ${plural(rows.length, 'Service port')} of the kubectl snapshot realised on this node${warned ? ` (${warned} with a warning)` : ''}`];
  // A realised row with a warning (the DSR hairpin rule missing) is listed with the faults.
  for (const r of opts.verbose ? rows : rows.filter((x) => x.state !== 'realised' || x.warning)) {
    out.push(`  ${`${r.namespace}/${r.name}`.padEnd(36)} ${`${r.where}/${r.proto}`.padEnd(26)} ${r.warning ? `${r.state}, ${r.warning}` : r.state}`);
    if (r.state === 'realised' && !r.warning && !opts.verbose) continue;
    out.push(...wrap(r.detail, 6));
    for (const e of r.evidence.slice(0, 2)) if (e.file) out.push(`      ${e.file}${e.line ? `:${e.line}` : ''}  ${e.text.length > 120 ? `${e.text.slice(0, 120)}…` : e.text}`);
  }
  return out;
}
