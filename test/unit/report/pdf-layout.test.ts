// The PDF a support engineer attaches to a ticket (issue #23 point 10): a summary on page 1, the node's
// name and page numbers on every page, verdict badges never split ("forward/ed" in a narrow column),
// the topology on a landscape page, A4 or US Letter, and no more pages than the content needs.
// Read back with poppler's pdftotext/pdfinfo; the pages were looked at with `pdftoppm -png -r 60`.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { buildReport, pageSizeForLocale, renderHtml, type ReportDocument } from '../../../analysis/report/index.ts';
import { cssString } from '../../../analysis/report/report-css.ts';
import { exportReport } from '../../../services/export/export.ts';
import { chromiumPath } from '../../../services/export/pdf.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { pageArg } from '../../../cli/commands/report.ts';

const root = path.resolve(__dirname, '../../..');
const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-pdf-layout-'));
const poppler = (() => {
  try {
    execFileSync('pdfinfo', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const canPrint = !!chromiumPath() && poppler;

const text = (pdf: string, page?: number) => execFileSync('pdftotext', [...(page ? ['-f', String(page), '-l', String(page)] : []), pdf, '-'], { encoding: 'utf8' });
const pages = (pdf: string) => Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))![1]);
/** Each page's size in points, `w x h`. */
const sizes = (pdf: string) => [...execFileSync('pdfinfo', ['-f', '1', '-l', '999', pdf], { encoding: 'utf8' }).matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/g)].map((m) => [Math.round(Number(m[1])), Math.round(Number(m[2]))]);

/** Every way a verdict word can be split over two lines ("forward" / "ed"). */
function splitBadges(t: string): string[] {
  const found: string[] = [];
  for (const v of ['delivered', 'forwarded', 'dropped', 'unknown']) for (let k = 1; k < v.length; k++) if (new RegExp(`(^|\\s)${v.slice(0, k)}\\n+${v.slice(k)}\\b`, 'i').test(t)) found.push(`${v.slice(0, k)}/${v.slice(k)}`);
  return found;
}

const cases = [
  // Pages before this change: 17 and 19 (A4). The bound leaves room for wording, not for the old layout.
  { name: 'l2bridge-node', bundle: 'assets/demo/l2bridge-node', maxPages: 13 },
  { name: 'overlay-node', bundle: 'assets/demo/overlay-node', maxPages: 15 },
];
const built = new Map<string, { model: NodeModel; doc: ReportDocument; a4: string; letter: string }>();

beforeAll(async () => {
  if (!canPrint) return;
  for (const c of cases) {
    const model = await loadBundle(path.join(root, c.bundle));
    const a4 = path.join(dir, `${c.name}.pdf`);
    const letter = path.join(dir, `${c.name}-letter.pdf`);
    await exportReport(model, { format: 'pdf', outPath: a4, page: 'a4' });
    await exportReport(model, { format: 'pdf', outPath: letter, page: 'letter' });
    built.set(c.name, { model, doc: buildReport(model), a4, letter });
  }
}, 120_000);

describe.skipIf(!canPrint)('the PDF report', () => {
  for (const c of cases) {
    describe(c.name, () => {
      it(`fits in at most ${c.maxPages} pages, on A4 and on Letter`, () => {
        const b = built.get(c.name)!;
        expect(pages(b.a4)).toBeLessThanOrEqual(c.maxPages);
        expect(pages(b.letter)).toBeLessThanOrEqual(c.maxPages + 1);
      });
      it('page 1 is the summary: the node, the platform, every walk with its verdict, every finding', () => {
        const b = built.get(c.name)!;
        const p1 = text(b.a4, 1).replace(/\s+/g, ' ');
        expect(p1).toContain(b.doc.node.hostName!);
        expect(p1).toContain(b.doc.node.platform.label);
        for (const t of b.doc.traces) expect(p1).toContain(t.verdict);
        expect(p1).toMatch(/\d+ errors? \d+ warnings?/);
        for (const f of b.doc.findings) expect(p1).toContain(f.title.slice(0, 30).replace(/\s+/g, ' '));
        // The details start on page 2.
        expect(p1).not.toContain('Packet walks');
      });
      it('no verdict badge is split over two lines', () => {
        const b = built.get(c.name)!;
        for (const pdf of [b.a4, b.letter]) expect(splitBadges(text(pdf))).toEqual([]);
      });
      it('every page names the node and its number; the topology has a landscape page', () => {
        const b = built.get(c.name)!;
        const n = pages(b.a4);
        for (let i = 1; i <= n; i++) {
          const t = text(b.a4, i);
          expect(t).toContain(`node ${b.doc.node.hostName}`);
          expect(t).toContain(`page ${i} of ${n}`);
        }
        const a4 = sizes(b.a4);
        expect(a4.filter(([w, h]) => w === 595 && h === 842).length).toBe(n - 1);
        const landscape = a4.findIndex(([w, h]) => w === 842 && h === 595);
        expect(text(b.a4, landscape + 1)).toContain('Node topology');
        const letter = sizes(b.letter);
        expect(letter.every(([w, h]) => (w === 612 && h === 792) || (w === 792 && h === 612))).toBe(true);
      });
    });
  }
});

describe('page size and header text', () => {
  it('the locale picks the paper: US Letter for en_US, fr_CA, es_MX; A4 elsewhere or when unknown', () => {
    for (const l of ['en_US.UTF-8', 'fr_CA.UTF-8', 'es_MX', 'en-US']) expect(pageSizeForLocale(l)).toBe('letter');
    for (const l of ['en_GB.UTF-8', 'de_DE.UTF-8', 'C.UTF-8', 'POSIX', '', undefined]) expect(pageSizeForLocale(l)).toBe('a4');
  });
  it('--page wins over the locale, and is refused for formats without pages', () => {
    expect(pageArg(undefined, 'pdf', { LANG: 'en_US.UTF-8' })).toBe('letter');
    expect(pageArg(undefined, 'pdf', { LANG: 'en_US.UTF-8', LC_ALL: 'de_DE.UTF-8' })).toBe('a4');
    expect(pageArg('A4', 'pdf', { LANG: 'en_US.UTF-8' })).toBe('a4');
    expect(() => pageArg('a3', 'pdf', {})).toThrow(/a4 or letter/);
    expect(() => pageArg('letter', 'md', {})).toThrow(/\.pdf or \.html/);
  });
  it('a host name from the bundle cannot end the style sheet it is printed from', async () => {
    const s = cssString('evil"; } </style><script>x</script>');
    expect(s.slice(1, -1)).not.toMatch(/[<>"{};]/);
    const model = await loadBundle(path.join(root, 'assets/demo/l2bridge-node'));
    const html = renderHtml({ ...buildReport(model), node: { ...buildReport(model).node, hostName: 'a</style><script>alert(1)</script>' } });
    expect(html).not.toContain('<script>');
  });
});
