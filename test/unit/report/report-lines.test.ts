// Evidence names its place as `file:line`; line 0 means the whole file (parsers/types.ts), as in a
// check's "nothing in ip.txt has this address" (analysis/checks/context.ts `absent`). A report must show
// that as the file's name, not `ip.txt:0`, a line that does not exist.
import { beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { buildReport, renderHtml, renderMarkdown, type ReportDocument } from '../../../analysis/report/index.ts';
import { sourceRef } from '../../../analysis/report/where.ts';

const root = path.resolve(__dirname, '../../..');
let doc: ReportDocument;

beforeAll(async () => {
  doc = buildReport(await loadBundle(path.join(root, 'assets/demo/l2bridge-node')));
});

/** Every `name.ext:0` in a text. */
const lineZero = (s: string) => [...s.matchAll(/[\w.-]+\.(?:txt|json|log|yaml|csv|out):0(?!\d)/g)].map((m) => m[0]);

describe('evidence at line 0 (the whole file)', () => {
  it('the demo has such evidence (an endpoint with no adapter in ip.txt)', () => {
    expect(doc.findings.flatMap((f) => f.evidence).some((e) => e.line === 0)).toBe(true);
  });

  it('HTML and Markdown never print file:0, and still name the file', () => {
    const html = renderHtml(doc);
    const md = renderMarkdown(doc);
    expect(lineZero(html)).toEqual([]);
    expect(lineZero(md)).toEqual([]);
    for (const e of doc.findings.flatMap((f) => f.evidence)) {
      expect(html).toContain(sourceRef(e.file, e.line));
      expect(md).toContain(sourceRef(e.file, e.line));
    }
  });

  it('sourceRef keeps real lines and drops only 0', () => {
    for (const line of [1, 2, 9, 10, 590, 123456]) expect(sourceRef('a.txt', line)).toBe(`a.txt:${line}`);
    expect(sourceRef('ip.txt', 0)).toBe('ip.txt');
  });
});
