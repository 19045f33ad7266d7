// The report's Services section (issue #26 point 3): the Services table's columns, what is not
// realised first and red, realised ports listed up to a bound and the rest counted; no snapshot, no section.
import { describe, expect, it } from 'vitest';
import { buildPlatform } from '../platforms/helpers.ts';
import { buildReport } from '../../../analysis/report/build.ts';
import { renderMarkdown } from '../../../analysis/report/markdown.ts';
import { renderHtml } from '../../../analysis/report/html.ts';
import { REALISED_LISTED } from '../../../analysis/report/services-section.ts';
import { inspectDocument } from '../../../analysis/inspect.ts';

describe('the report\'s Services section', () => {
  const { model, node } = buildPlatform('flannel-host-gw', { services: 70, seed: 2, faults: ['stale-backend'] });
  const svc = node.expected.faults.find((f) => f.name === 'stale-backend')!.objects[0]!;
  const doc = buildReport(model);

  it('holds inspect\'s rows, the faulty Service first, with the table\'s columns', () => {
    const inspect = inspectDocument(model).services;
    expect(doc.services!.length).toBe(inspect.length);
    expect(new Set(doc.services!.map((r) => `${r.namespace}/${r.name}|${r.where}|${r.proto}|${r.state}`))).toEqual(new Set(inspect.map((r) => `${r.namespace}/${r.name}|${r.where}|${r.proto}|${r.state}`)));
    const first = doc.services![0]!;
    expect(`${first.namespace}/${first.name}`).toBe(svc);
    expect(first).toMatchObject({ state: 'stale backends', tone: 'bad' });
    expect(first.type).toBeTruthy();
    expect(first.ready).toBeGreaterThan(0);
  });

  it('Markdown: the table with every column, the faulty rows before any realised one, the rest counted', () => {
    const md = renderMarkdown(doc);
    const section = md.slice(md.indexOf('## Services on this node'));
    expect(section).toContain('| Service | port | type | VIP | ready / HNS | eTP / iTP | state | what was found | evidence |');
    const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Service |'));
    const firstRealised = rows.findIndex((l) => l.includes('| realised |'));
    const lastStale = rows.map((l) => l.includes('| stale backends |')).lastIndexOf(true);
    expect(lastStale).toBeGreaterThanOrEqual(0);
    expect(lastStale).toBeLessThan(firstRealised);
    const realised = doc.services!.filter((r) => r.state === 'realised').length;
    expect(realised).toBeGreaterThan(REALISED_LISTED);
    expect(rows.filter((l) => l.includes('| realised |')).length).toBe(REALISED_LISTED);
    expect(section).toContain(`${realised - REALISED_LISTED} more realised Service ports are not listed`);
  });

  it('HTML: the faulty rows are marked red', () => {
    const html = renderHtml(doc);
    const bad = html.match(/<tr class="svc-bad">/g) ?? [];
    expect(bad.length).toBe(doc.services!.filter((r) => r.tone === 'bad').length);
    expect(bad.length).toBeGreaterThan(0);
    expect(html).toMatch(/tr\.svc-bad td \{ background/);
  });

  it('without a kubectl snapshot there is no section', () => {
    const bare = buildPlatform('flannel-host-gw', {}, { kubectl: false }).model;
    const d = buildReport(bare);
    expect(renderMarkdown(d)).not.toContain('Services on this node');
  });
});
