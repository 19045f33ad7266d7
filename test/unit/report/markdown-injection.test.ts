// Markdown injection (issue #28, point 5): text from a bundle — a VFP rule's friendly name, an evidence
// line, a note — must show as written in any CommonMark renderer and never become an HTML element, a
// link or a broken table. No CommonMark package is installed, so the rendered Markdown is read back
// with a small test-only reader written from the spec (commonmark-code-spans.ts, CommonMark 0.31.2
// §6.1 code spans and §2.4 backslash escapes).
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { buildReport, renderMarkdown, type ReportDocument } from '../../../analysis/report/index.ts';
import { cell, code, fence, para } from '../../../analysis/report/markdown-text.ts';
import { readCodeSpans, unescaped } from './commonmark-code-spans.ts';
import { checkMarkdown } from './markdown-check.ts';

const root = path.resolve(__dirname, '../../..');

/** Pieces hostile text is made of: backtick runs, HTML, pipes, line breaks, link syntax, spaces. */
const piece = fc.oneof(
  fc.constantFrom('`', '``', '```', '````', ' ', '|', '\n', '\r\n', '\\', '<img src=x onerror=alert(1)>', '<a href="javascript:alert(1)">x</a>', '[x](javascript:alert(1))', '# h', '<div>', '*', '_', '~~~', '&lt;'),
  fc.string({ maxLength: 6 }),
);
const hostile = fc.array(piece, { maxLength: 14 }).map((p) => p.join(''));

describe('code(): a code span that shows its text exactly', () => {
  it('reads back, per the spec, as one code span whose content is the input (line endings as spaces)', () => {
    fc.assert(
      fc.property(hostile.filter((s) => s !== ''), (s) => {
        const md = code(s);
        const segs = readCodeSpans(md);
        expect(segs).toHaveLength(1);
        expect(segs[0].code).toBe(true);
        expect(segs[0].text).toBe(s.replace(/\r\n?|\n/g, ' '));
      }),
      { numRuns: 2000 },
    );
  });

  it('the friendly name that closed the old double-backtick span stays inside one span', () => {
    const name = 'LB_DSR_``<img src=x onerror=alert(1)>``_53';
    const segs = readCodeSpans(code(name));
    expect(segs.map((x) => x.code)).toEqual([true]);
    expect(segs[0].text).toBe(name);
  });
});

describe('cell() and para(): no HTML, link or extra cell from the text', () => {
  it('outside code spans no unescaped < > [ ] and (cells) no unescaped | and no line break', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const c = cell(s);
        expect(c).not.toMatch(/[\r\n]/);
        for (const seg of readCodeSpans(c)) if (!seg.code) expect(unescaped(seg.text.replace(/<br>/g, ''), '<>[]|'), c).toEqual([]);
        const p = para(s);
        const lines = p.split('\n');
        for (const line of lines) for (const seg of readCodeSpans(line)) if (!seg.code) expect(unescaped(seg.text, '<>[]'), p).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('a code span in a paragraph never spans lines (the next line could start a block and cut it open)', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const p = para(s);
        // Each code span the spec finds on a line of the output is one the input had on one line.
        for (const line of p.split('\n')) for (const seg of readCodeSpans(line)) if (seg.code) expect(seg.text.includes('\n')).toBe(false);
        // Read as a whole, the spans are the same as read line by line: none crosses a line ending.
        const whole = readCodeSpans(p).filter((x) => x.code).length;
        const byLine = p.split('\n').reduce((n, line) => n + readCodeSpans(line).filter((x) => x.code).length, 0);
        expect(whole).toBe(byLine);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('fence(): no body line closes the block', () => {
  it('the closing fence is the first line that could close it', () => {
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 6 }), (lines) => {
        const body = lines.join('\n').split('\n');
        const md = fence(body).split('\n');
        const open = /^(`{3,}|~{3,})/.exec(md[0])![1];
        const closes = md.slice(1).findIndex((l) => {
          const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(l);
          return m && m[1][0] === open[0] && m[1].length >= open.length;
        });
        expect(closes).toBe(md.length - 2);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('a whole report with hostile text in rule names, evidence, findings and notes', () => {
  let base: ReportDocument;
  beforeAll(async () => {
    const m = await loadBundle(path.join(root, 'assets/demo/l2bridge-node'));
    base = buildReport(m, { generatedAt: '2024-01-01T00:00:00Z' });
  });

  it('renders only the tags hnsight emits, with every table row whole', () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, (a, b, c) => {
        const doc: ReportDocument = structuredClone(base);
        const t = doc.traces[0];
        t.title = a;
        t.hops.forEach((h, i) => {
          h.rule = i % 2 ? a : b;
          h.at = c;
          if (h.evidence) h.evidence = { ...h.evidence, lines: [b, a, c] };
        });
        for (const f of doc.findings) {
          f.title = a;
          f.explanation = b;
          f.evidence = f.evidence.map((e) => ({ ...e, lines: [c, b] }));
          f.objects = [a, c];
        }
        doc.notes.push({ id: 'n', target: { kind: 'report', ref: '' }, on: a, text: b, createdAt: '', updatedAt: '' });
        const problems = checkMarkdown(renderMarkdown(doc));
        expect(problems).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('the <summary> of a quoted rule block shows an HTML payload in backticks as text', () => {
    const doc: ReportDocument = structuredClone(base);
    const f = doc.findings[0];
    f.evidence = [{ file: 'vfp.txt', line: 3, lines: ['RULE : `<img src=x onerror=alert(1)>`', 'Priority : 1'] }];
    const md = renderMarkdown(doc);
    expect(md).toContain('<summary>RULE : `&lt;img src=x onerror=alert(1)&gt;`</summary>');
    expect(checkMarkdown(md)).toEqual([]);
  });
});
