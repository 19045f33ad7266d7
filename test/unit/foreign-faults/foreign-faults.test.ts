// Faulty copies of the hand-written foreign bundles (test/fixtures/foreign-faults/README.md): a support
// engineer injected the failures of the Windows troubleshooting guide and wrote, in each bundle's
// expected-findings.json, what a correct tool must report. The checks run exactly as `hnsight inspect`
// runs them (cli/commands/inspect.ts: loadBundle → runChecks).
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../../../services/bundle/load.ts';
import { runChecks } from '../../../analysis/checks/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/foreign-faults');
const bundles = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/** A mention is one exact value, or a list of alternatives of which one must appear. */
type Mention = string | string[];
interface MustReport {
  id?: string;
  anyOf?: string[];
  severity: 'error' | 'warning';
  mentions: Mention[];
  /** the file the evidence must cite, or alternatives */
  evidenceFile: string | string[];
}
interface ExpectedFindings {
  bundle: string;
  base: string;
  faults: { what: string; files: string[] }[];
  mustReport: MustReport[];
  mustNotReportErrorsOtherThan: string[];
}
interface FindingLike {
  id: string;
  severity: string;
  title?: string;
  objects?: unknown[];
  evidence?: { file: string; line: number; text?: string }[];
}

const base = (f: string) => path.basename(f.replace(/\\/g, '/')).toLowerCase();
const haystack = (f: FindingLike) =>
  [...(f.objects ?? []).map((o) => (typeof o === 'string' ? o : JSON.stringify(o))), ...(f.evidence ?? []).map((e) => e.text ?? '')]
    .join('\n')
    .toLowerCase();
const alts = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);
const short = (f: FindingLike) =>
  `${f.severity} ${f.id} objects=${JSON.stringify(f.objects ?? [])} evidence=${JSON.stringify((f.evidence ?? []).map((e) => `${e.file}:${e.line} ${(e.text ?? '').slice(0, 100)}`))}`;

/** Why a finding does not satisfy `m`, or null when it does. */
function mismatch(f: FindingLike, m: MustReport): string | null {
  if (f.severity !== m.severity) return `severity ${f.severity}, expected ${m.severity}`;
  const hay = haystack(f);
  const missing = m.mentions.filter((men) => !alts(men).some((v) => hay.includes(v.toLowerCase())));
  if (missing.length) return `objects/evidence text lack ${missing.map((x) => JSON.stringify(x)).join(', ')}`;
  const files = alts(m.evidenceFile).map((x) => x.toLowerCase());
  if (!(f.evidence ?? []).some((e) => files.includes(base(e.file)))) return `no evidence cites ${files.join(' or ')} (cites ${[...new Set((f.evidence ?? []).map((e) => e.file))].join(', ') || 'nothing'})`;
  return null;
}

describe.each(bundles)('%s', (name) => {
  const dir = path.join(root, name);
  const exp = JSON.parse(readFileSync(path.join(dir, 'expected-findings.json'), 'utf8')) as ExpectedFindings;
  let findings: FindingLike[] | undefined;
  const run = async (): Promise<FindingLike[]> => {
    if (!findings) findings = runChecks(await loadBundle(dir)) as unknown as FindingLike[];
    return findings;
  };

  it.each(exp.mustReport.map((m) => [m.id ?? `anyOf(${(m.anyOf ?? []).join('|')})`, m] as const))('reports %s', async (_label, m) => {
    const all = await run();
    const ids = m.id ? [m.id] : (m.anyOf ?? []);
    const candidates = all.filter((f) => ids.includes(f.id));
    const reasons = candidates.map((f) => `  - ${short(f)}\n      → ${mismatch(f, m) ?? 'ok'}`);
    const ok = candidates.some((f) => mismatch(f, m) === null);
    expect(
      ok,
      candidates.length
        ? `${ids.join('|')} reported, but not as expected:\n${reasons.join('\n')}`
        : `${ids.join('|')} not reported. Findings were:\n${all.map((f) => `  - ${short(f)}`).join('\n')}`,
    ).toBe(true);
  });

  it('reports no other error', async () => {
    const all = await run();
    const extra = all.filter((f) => f.severity === 'error' && !exp.mustNotReportErrorsOtherThan.includes(f.id));
    expect(extra.map(short)).toEqual([]);
  });
});
