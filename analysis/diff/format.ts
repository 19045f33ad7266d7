// The readable form of a diff (`hnsight diff A B` without --json).
import type { DiffResult, RuleCounters } from './types.ts';
import { sourceRef } from '../report/where.ts';
import { plural } from '../../parsers/text/quantities.ts';

const where = (s?: { file: string; line: number }) => (s ? `  [${sourceRef(s.file, s.line)}]` : '');

function counters(c: RuleCounters): string {
  const names: [keyof RuleCounters, string][] = [['matchedPackets', 'matched'], ['droppedPackets', 'dropped'], ['pendingPackets', 'pending'], ['droppedFlows', 'dropped flows']];
  return names
    .filter(([k]) => c[k] !== undefined && c[k] !== 0)
    .map(([k, n]) => `${n} ${c[k]! > 0 ? '+' : ''}${c[k]}`)
    .join(', ');
}

export function formatDiff(d: DiffResult, opts: { maxPerSection?: number } = {}): string {
  const max = opts.maxPerSection ?? 200;
  const o: string[] = [];
  o.push(`A: ${d.a.hostName ?? '(host name unknown)'} — ${d.a.location}`);
  o.push(`B: ${d.b.hostName ?? '(host name unknown)'} — ${d.b.location}`);
  if (!d.sameHost) o.push('note: the two bundles name different hosts (comparing two nodes)');
  o.push('');
  const t = d.totals;
  if (!t.added && !t.removed && !t.changed && !d.counters.length && !d.findings.appeared.length && !d.findings.disappeared.length) {
    o.push('no differences');
  }
  for (const s of d.sections) {
    if (s.skipped && !s.added.length && !s.removed.length && !s.changed.length) {
      o.push(`${s.title}: not compared — ${s.skipped}`);
      continue;
    }
    o.push(`${s.title}: ${s.added.length} added, ${s.removed.length} removed, ${s.changed.length} changed, ${s.unchanged} unchanged${s.skipped ? ` (${s.skipped})` : ''}`);
    const lines: string[] = [];
    for (const x of s.added) lines.push(`  + ${x.label}${where(x.src)}`);
    for (const x of s.removed) lines.push(`  - ${x.label}${where(x.src)}`);
    for (const x of s.changed) {
      lines.push(`  ~ ${x.label}${where(x.srcB)}`);
      for (const f of x.fields) lines.push(`      ${f.field}: ${f.a || '(none)'}  →  ${f.b || '(none)'}`);
    }
    o.push(...lines.slice(0, max));
    if (lines.length > max) o.push(`  … ${lines.length - max} more lines (use --json for all)`);
  }
  o.push('');
  if (d.countersSkipped) o.push(`rule counters: not compared — ${d.countersSkipped}`);
  else {
    o.push(`rule counters: ${plural(d.counters.length, 'rule')} moved`);
    for (const c of d.counters.slice(0, max)) o.push(`  ${c.label}: ${counters(c.delta)}${where(c.srcB)}`);
    if (d.counters.length > max) o.push(`  … ${d.counters.length - max} more`);
  }
  o.push('');
  o.push(`findings: ${d.findings.appeared.length} appeared, ${d.findings.disappeared.length} disappeared`);
  for (const f of d.findings.appeared) o.push(`  + ${f.severity} ${f.id}: ${f.title}`);
  for (const f of d.findings.disappeared) o.push(`  - ${f.severity} ${f.id}: ${f.title}`);
  return o.join('\n') + '\n';
}
