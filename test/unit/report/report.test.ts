// The report document and its renderings, on the l2bridge demo (with a notes file) and on a node with
// a real fault: golden document, self-contained HTML opened in Chromium, PDF rasterized, Markdown shape.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { buildReport, renderHtml, renderMarkdown, type ReportDocument } from '../../../analysis/report/index.ts';
import { splitCodeSpans } from '../../../analysis/report/markdown.ts';
import { para } from '../../../analysis/report/markdown-text.ts';
import { prose } from '../../../analysis/report/html.ts';
import { codeParts, withoutCodeMarks } from '../../../analysis/report/code-spans.ts';
import { xml as esc } from '../../../analysis/report/svg.ts';
import { exportReport } from '../../../services/export/export.ts';
import { chromiumPath, CHROMIUM_ARGS } from '../../../services/export/pdf.ts';
import { parseNotes } from '../../../services/notes/store.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { Notes } from '../../../analysis/report/notes.ts';
import { buildNode, writeBundle, DEMOS } from '../../../tools/gen/index.ts';
import { checkMarkdown } from './markdown-check.ts';

const root = path.resolve(__dirname, '../../..');
const RESULTS = path.join(root, 'test-results');
const FIXED = '2024-05-14T12:00:00.000Z';
let demo: NodeModel;
let notes: Notes;
let doc: ReportDocument;

beforeAll(async () => {
  demo = await loadBundle(path.join(root, 'assets/demo/l2bridge-node'));
  notes = parseNotes(readFileSync(path.join(root, 'test/fixtures/report/l2bridge-notes.json'), 'utf8'))!;
  expect(notes).toBeDefined();
  doc = buildReport(demo, { notes, generatedAt: FIXED });
  mkdirSync(RESULTS, { recursive: true });
});

/** No request can leave a page built from this HTML. */
function externalRefs(html: string): string[] {
  const bad: string[] = [];
  for (const m of html.matchAll(/\b(?:src|href|xlink:href|action|poster|data)\s*=\s*["']?\s*([^"'\s>]+)/gi)) if (!/^#|^data:/i.test(m[1])) bad.push(m[0]);
  for (const m of html.matchAll(/url\(\s*["']?([^"')]+)/gi)) if (!/^#|^data:/i.test(m[1])) bad.push(m[0]);
  for (const m of html.matchAll(/<(script|link|iframe|object|embed|img)\b[^>]*>/gi)) bad.push(m[0]);
  if (/@import/i.test(html)) bad.push('@import');
  return bad;
}

describe('report document (l2bridge demo + notes)', () => {
  it('matches the golden document', async () => {
    // The SVGs are checked below and in the screenshot; the golden keeps the document's facts readable.
    const facts = { ...doc, node: { ...doc.node, location: path.relative(root, doc.node.location) }, topology: { ...doc.topology, svg: `<${doc.topology.svg.length} chars>` }, traces: doc.traces.map((t) => ({ ...t, svg: `<${t.svg.length > 0 ? 'svg' : 'none'}>` })) };
    await expect(JSON.stringify(facts, null, 2) + '\n').toMatchFileSnapshot(path.join(root, 'test/fixtures/report/l2bridge-report.golden.json'));
  });

  it('is stable: the same inputs give the same bytes', () => {
    expect(JSON.stringify(buildReport(demo, { notes, generatedAt: FIXED }))).toBe(JSON.stringify(doc));
    expect(buildReport(demo, {}).generatedAt).toBeNull();
  });

  it('takes the walks, title and summary from the notes, and puts each note where it belongs', () => {
    expect(doc.title).toBe(notes.title);
    expect(doc.traces.map((t) => t.ref)).toEqual(['trace:10.244.32.3-10.96.0.10:53/udp', 'trace:10.244.32.3-10.244.33.3:80/tcp']);
    const dns = doc.traces[0];
    expect(dns.verdict).toBe('forwarded');
    expect(dns.hops[3].rule).toMatch(/^LB_DSR_.*_10\.96\.0\.10_53_53_17$/);
    expect(dns.hops[3].notes.map((n) => n.id)).toEqual(['n1']);
    expect(dns.hops[3].notes[0].on).toBe(`hop 4 of ${dns.title}`);
    expect(dns.hops[3].evidence!.lines[0]).toMatch(/^\s*RULE\s*:\s*LB_DSR/);
    expect(dns.hops[3].evidence!.lines.some((l) => /DIP Range/.test(l))).toBe(true);
    expect(doc.notes.map((n) => n.id)).toEqual(['n2']);
    expect(dns.path.map((s) => s.kind)).toEqual(['pod endpoint', 'compartment', 'load balancer', 'remote endpoint', 'next hop', 'uplink']);
    expect(dns.path[2].next).toEqual(['DNAT dst → 10.244.33.4']);
  });

  it('defaults to the presets and names every walk', () => {
    const d = buildReport(demo, { generatedAt: FIXED });
    expect(d.traces.map((t) => `${t.flow.srcIp}>${t.flow.dstIp}:${t.flow.dstPort}/${t.flow.proto}`)).toEqual([
      '10.244.32.3>10.244.32.4:80/tcp',
      '10.244.32.3>10.244.33.3:80/tcp',
      '10.244.32.3>10.96.0.10:53/udp',
      '10.244.32.3>10.96.0.10:53/tcp',
      '10.244.32.3>93.184.216.34:443/tcp',
      '10.240.0.19>10.244.32.3:80/tcp',
    ]);
    // The default demo's two faults, and the walk to the outside carries the typo beside its verdict.
    expect(d.findings.map((f) => f.id).sort()).toEqual(['endpoint-without-vnic', 'outboundnat-exception-typo']);
    const out = d.traces.find((t) => t.flow.dstIp === '93.184.216.34')!;
    expect(out.verdict).toBe('forwarded');
    expect(out.verdictCaveat).toMatchObject({ severity: 'error', text: expect.stringMatching(/^OutBoundNAT ExceptionList entry 10\.244\.0\.0\/0/) });
    const hop = out.hops[out.findings[0].hop!];
    expect(hop.rule).toMatch(/^EXCEPTIONS_OUTBOUNDNAT/);
    expect(hop.matchedBecause).toEqual([{ field: 'destination IP', value: '93.184.216.34', condition: '0.0.0.0-255.255.255.255', result: 'match' }]);
    // No default walk starts from the pod whose vNIC is missing.
    const noVnic = demo.endpoints!.find((e) => d.findings.find((f) => f.id === 'endpoint-without-vnic')!.objects.includes(e.id))!;
    for (const t of d.traces) expect(t.flow.srcIp).not.toBe(noVnic.ip);
  });

  it('draws the topology and each path as SVG', () => {
    expect(doc.topology.svg).toMatch(/^<svg xmlns='http:\/\/www\.w3\.org\/2000\/svg'/);
    expect(doc.topology.summarised).toBe(false);
    expect(doc.topology.shown).toBe(doc.topology.nodes);
    for (const t of doc.traces) expect(t.svg).toMatch(/^<svg[^>]*>.*<\/svg>$/s);
    const small = buildReport(demo, { notes, generatedAt: FIXED, maxGraphNodes: 20 });
    expect(small.topology.summarised).toBe(true);
    expect(small.topology.shown).toBeLessThan(small.topology.nodes);
    expect(small.topology.svg).toContain('Showing');
  });
});

describe('HTML', () => {
  it('is self-contained: no external src/href/url(), no script', () => {
    const html = renderHtml(doc);
    expect(externalRefs(html)).toEqual([]);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain(notes.notes[0].text);
    expect(html).toContain('Collected right after the slow lookups started.');
  });

  it('opens in Chromium without a request and is screenshotted', async (ctx) => {
    const exe = chromiumPath();
    if (!exe) return ctx.skip();
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: exe, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.setContent(renderHtml(doc), { waitUntil: 'load' });
      expect(requests.filter((u) => !u.startsWith('data:') && u !== 'about:blank')).toEqual([]);
      expect(await page.locator('section.walk').count()).toBe(2);
      expect(await page.locator('svg').count()).toBe(3);
      await page.screenshot({ path: path.join(RESULTS, 'report-l2bridge.png'), fullPage: true });
      await page.locator('#topology ~ .figure').first().screenshot({ path: path.join(RESULTS, 'report-l2bridge-topology.png') });
    } finally {
      await browser.close();
    }
  });
});

describe('PDF', () => {
  it('is printed by headless Chromium and rasterized with pdftoppm', async (ctx) => {
    if (!chromiumPath()) return ctx.skip();
    const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-pdf-'));
    const out = path.join(dir, 'report.pdf');
    const r = await exportReport(demo, { format: 'pdf', outPath: out, notes, generatedAt: FIXED });
    expect(r.path).toBe(out);
    const pdf = readFileSync(out);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    let pdftoppm = true;
    try {
      execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    } catch {
      pdftoppm = false;
    }
    if (!pdftoppm) return ctx.skip();
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', out, path.join(RESULTS, 'report-l2bridge-pdf')]);
    const page1 = [path.join(RESULTS, 'report-l2bridge-pdf-1.png'), path.join(RESULTS, 'report-l2bridge-pdf-01.png')].find(existsSync);
    expect(page1).toBeDefined();
    expect(readFileSync(page1!).subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});

describe('Markdown', () => {
  it('has well-formed tables, fences and <details>, and the notes', () => {
    const md = renderMarkdown(doc);
    writeFileSync(path.join(RESULTS, 'report-l2bridge.md'), md);
    expect(checkMarkdown(md)).toEqual([]);
    expect(md).toMatch(/^# DNS from pod/);
    expect(md).toContain('| # | where | layer / group / rule | matched because | action | rewrite | evidence |');
    expect(md).toContain('<details><summary>Rules behind the hops');
    expect(md).toContain('📝 **Note** on hop 4 of');
    expect(md).toContain('**Path:**');
  });
});

describe('a faulty node: the colleague reads the problem without the app', () => {
  let faulty: NodeModel;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-rep-'));
    await writeBundle(buildNode({ ...DEMOS[0].spec, faults: ['missing-remote-subnet-route'] }), dir, { encoding: 'utf16le-bom', eol: 'crlf', extras: false });
    faulty = await loadBundle(dir);
  });

  it('shows the finding with its fix and evidence, the walk that fails, and both notes', () => {
    const base = buildReport(faulty, {});
    const f = base.findings.find((x) => x.id === 'remote-subnet-no-route')!;
    expect(f).toBeDefined();
    const remote = faulty.endpoints!.find((e) => e.isRemote && e.ip && f.objects.some((o) => o.includes(e.ip!.split('.').slice(0, 3).join('.'))))!;
    const flow = { srcIp: base.traces[0].flow.srcIp, dstIp: remote.ip!, dstPort: 80, proto: 'tcp' as const };
    const n: Notes = {
      schema: 1, bundle: { hash: 'x', location: 'x' }, title: 'Pods cannot reach pods on the other node', summary: 'Cross-node pod traffic times out.', revision: 1, traces: [flow],
      notes: [
        { id: 'a', target: { kind: 'hop', ref: `trace:${flow.srcIp}-${flow.dstIp}:80/tcp#5` }, text: 'Here the packet takes the default route instead of the remote node.', createdAt: FIXED, updatedAt: FIXED },
        { id: 'b', target: { kind: 'finding', ref: `finding:${f.key}` }, text: 'Route was deleted by the network reset script.', createdAt: FIXED, updatedAt: FIXED },
      ],
    };
    const d = buildReport(faulty, { notes: n, generatedAt: FIXED });
    expect(d.findings.find((x) => x.key === f.key)!.notes.map((x) => x.text)).toEqual(['Route was deleted by the network reset script.']);
    expect(d.traces[0].hops[5].notes.map((x) => x.id)).toEqual(['a']);
    const html = renderHtml(d);
    const md = renderMarkdown(d);
    writeFileSync(path.join(RESULTS, 'report-faulty.html'), html);
    writeFileSync(path.join(RESULTS, 'report-faulty.md'), md);
    for (const text of [f.title, f.fix, 'Here the packet takes the default route', 'Route was deleted by the network reset script.']) {
      // The fix's code spans are drawn as code (prose), the rest escaped.
      expect(html).toContain(text === f.fix ? prose(text) : text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'));
      expect(md).toContain(para(text));
    }
    // The fix's command is a code span: Markdown shows it as written, so `<that node's IP>` is not escaped there.
    expect(f.fix).toMatch(/`New-NetRoute [^`]*<that node's IP>[^`]*`/);
    expect(md).toContain("-NextHop <that node's IP>");
    expect(md).not.toMatch(/`[^`\n]*&lt;[^`\n]*`/);
    // In the HTML it is code, with no backtick left in the fix.
    const fixHtml = /<p class="fix">(.*?)<\/p>/.exec(html.slice(html.indexOf(esc(f.title))))![1];
    expect(fixHtml).toContain('<code>New-NetRoute -DestinationPrefix 10.244.33.0/24 -NextHop &lt;that node&#39;s IP&gt;');
    expect(fixHtml).not.toContain('`');
    // The walk into the subnet carries the finding on the hop it concerns and beside its verdict.
    const t = d.traces[0];
    const on = t.findings.find((x) => x.key === f.key)!;
    expect(on).toBeDefined();
    expect(t.verdictCaveat).toMatchObject({ severity: 'error', text: expect.stringContaining('no route for remote pod subnet') });
    expect(html).toMatch(new RegExp(`<span class="badge ${t.verdict}">${t.verdict.toUpperCase()}</span> <span class="caveat sev-error">(but|and) no route for remote pod subnet`));
    // The hop table has five columns; the evidence, a finding and a note each take a full-width row under their hop.
    expect(html).toContain(`<tr class="finding-row sev-error"><td></td><td colspan="4"><span class="badge error">error</span> <b>${f.title}</b>`);
    expect(md).toMatch(new RegExp(`\\*\\*${t.verdict.toUpperCase()}\\*\\*, 🔴 \\*\\*(but|and) no route for remote pod subnet`));
    const row = md.split('\n').find((l) => l.startsWith(`| ${on.hop! + 1}`) && l.includes(f.title))!;
    expect(row).toBeDefined();
    // JSON: the document as is.
    expect(JSON.parse(JSON.stringify(d)).traces[0].findings[0]).toMatchObject({ key: expect.any(String), why: expect.any(String) });
    expect(checkMarkdown(md)).toEqual([]);
    expect(externalRefs(html)).toEqual([]);
  });
});

describe('code spans and Markdown specials in the checks’ text', () => {
  it('escapes a Windows path outside a code span so Markdown shows its backslashes and star', () => {
    const fix = 'Correct the ExceptionList in the CNI config (C:\\k\\cni\\config\\*.conf / the flannel `AdditionalArgs`), then `Get-HnsEndpoint | ConvertTo-Json -Depth 10`.';
    const md = para(fix);
    expect(md).toBe('Correct the ExceptionList in the CNI config (C:\\\\k\\\\cni\\\\config\\\\\\*.conf / the flannel `AdditionalArgs`), then `Get-HnsEndpoint | ConvertTo-Json -Depth 10`.');
    // Markdown's backslash escapes undone give the text back: nothing lost, nothing turned into emphasis.
    const shown = splitCodeSpans(md).map((p) => (p.code ? p.text : p.text.replace(/\\([\\*_[\]~#>+\-.)])/g, '$1'))).join('');
    expect(shown).toBe(fix);
    expect(para('remote_10.244.1.1 [x] ~y~')).toBe('remote\\_10.244.1.1 \\[x\\] \\~y\\~');
    // A line that would start a heading, a list or a quote stays a line of text.
    expect(para('# 1')).toBe('\\# 1');
    expect(para('2. restart')).toBe('2\\. restart');
    expect(para('- x')).toBe('\\- x');
  });

  it('draws code spans as code in the HTML report, without their backticks', () => {
    expect(prose('run `ipconfig /renew` then <check>')).toBe('run <code>ipconfig /renew</code> then &lt;check&gt;');
    expect(prose('``a ` b`` and `x`')).toBe('<code>a ` b</code> and <code>x</code>');
    expect(prose('an unmatched ` stays')).toBe('an unmatched ` stays');
  });

  it('copies a fix without the backticks (PowerShell’s escape character)', () => {
    expect(withoutCodeMarks('then `Get-HnsEndpoint | ConvertTo-Json` and `` a`b ``')).toBe('then Get-HnsEndpoint | ConvertTo-Json and a`b');
    expect(codeParts('x `y` z')).toEqual([
      { text: 'x ', code: false },
      { text: 'y', code: true },
      { text: ' z', code: false },
    ]);
  });
});

describe('Markdown code spans', () => {
  it('are kept as written; the prose around them is escaped', () => {
    expect(para('remove it with `Get-HnsLoadBalancer | ? Id -eq <id>` then <restart>')).toBe('remove it with `Get-HnsLoadBalancer | ? Id -eq <id>` then &lt;restart&gt;');
    expect(para('``a ` <b>`` and `x`')).toBe('``a ` <b>`` and `x`');
    // An unmatched backtick is text, and what follows it is escaped.
    expect(para('a ` b <c>')).toBe('a \\` b &lt;c&gt;');
    expect(splitCodeSpans('x `y` z').map((p) => p.code)).toEqual([false, true, false]);
    expect(splitCodeSpans('``` a `` b')).toEqual([{ text: '``` a `` b', code: false }]);
  });
});
