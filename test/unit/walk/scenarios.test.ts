// The walk scenario suite: each file in test/fixtures/walk-scenarios/ is one small change to a copy of a
// bundle nobody here generated (the hand-written foreign bundles, or the hand-written dual-stack base),
// a flow, and what a real node does with it — verdict, final addresses, next hop or tunnel endpoint,
// deciding rule — with the source that says why next to the expectation. See the folder's README.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { decodeText } from '../../../parsers/text/decode.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { Flow, WalkHop, WalkResult } from '../../../analysis/walk/types.ts';

const FIX = path.resolve('test/fixtures');
const DIR = path.join(FIX, 'walk-scenarios');

interface Edit {
  file: string;
  /** A unique anchor; `find` is looked for after it. Multi-line texts are arrays of lines. */
  at?: string | string[];
  find: string | string[];
  replace?: string | string[];
  insertAfter?: string | string[];
  insertBefore?: string | string[];
}

interface HopExpect {
  rule?: string;
  layer?: string;
  action?: string;
  ruleType?: string;
  kind?: string;
  inferred?: boolean;
  unmodelled?: boolean;
  ambiguous?: boolean;
  flow?: boolean;
  port?: string;
  direction?: string;
}

interface Expect {
  verdict: WalkResult['verdict'];
  reasonMatches?: string;
  final?: Partial<WalkResult['final']>;
  egress?: Partial<WalkResult['egress']>;
  deciding?: HopExpect;
  dependsOnUnmodelled?: boolean;
  caveats?: string[];
  noCaveats?: string[];
  hops?: HopExpect[];
  noHops?: HopExpect[];
}

interface Scenario {
  title: string;
  base: string;
  change: string;
  edits: Edit[];
  flow: Flow;
  expect: Expect;
  reply?: Expect;
  why: string;
  source: string | string[];
}

const text = (v: string | string[]) => (Array.isArray(v) ? v.join('\n') : v);

function count(hay: string, needle: string): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) n++;
  return n;
}

function applyEdit(body: string, e: Edit, where: string): string {
  let from = 0;
  const find = text(e.find);
  if (e.at !== undefined) {
    const anchor = text(e.at);
    if (count(body, anchor) !== 1) throw new Error(`${where}: anchor ${JSON.stringify(anchor)} occurs ${count(body, anchor)} times in ${e.file}, not once`);
    from = body.indexOf(anchor);
  } else if (count(body, find) !== 1) throw new Error(`${where}: ${JSON.stringify(find)} occurs ${count(body, find)} times in ${e.file}; give an anchor (at)`);
  const i = body.indexOf(find, from);
  if (i < 0) throw new Error(`${where}: ${JSON.stringify(find)} not found in ${e.file}`);
  const end = i + find.length;
  if (e.replace !== undefined) return body.slice(0, i) + text(e.replace) + body.slice(end);
  if (e.insertAfter !== undefined) return body.slice(0, end) + text(e.insertAfter) + body.slice(end);
  if (e.insertBefore !== undefined) return body.slice(0, i) + text(e.insertBefore) + body.slice(i);
  throw new Error(`${where}: an edit needs replace, insertAfter or insertBefore`);
}

function baseDir(base: string): string {
  return base.startsWith('bases/') ? path.join(DIR, base) : path.join(FIX, base);
}

function loadScenario(s: Scenario, where: string) {
  const dir = baseDir(s.base);
  const enc = new TextEncoder();
  const parsed = readdirSync(dir)
    .filter((f) => statSync(path.join(dir, f)).isFile() && !f.startsWith('expected') && f !== 'README.md' && f !== 'SOURCES.md')
    .map((f) => {
      const bytes = new Uint8Array(readFileSync(path.join(dir, f)));
      const edits = s.edits.filter((e) => e.file === f);
      if (!edits.length) return parseBundleFile(f, bytes);
      // Edited files are decoded, changed with LF line ends, and handed on as UTF-8.
      let body = decodeText(bytes, f).text.replace(/\r\n/g, '\n');
      for (const e of edits) body = applyEdit(body, e, where);
      return parseBundleFile(f, enc.encode(body));
    });
  for (const e of s.edits) if (!parsed.some((p) => p.name === e.file)) throw new Error(`${where}: edit of ${e.file}, which ${s.base} does not have`);
  return assembleModel(parsed, { location: `scenario:${where}`, kind: 'folder', root: '' });
}

function hopMatches(h: WalkHop, x: HopExpect): boolean {
  const eq = (a: string | undefined, b: string | undefined) => b === undefined || a === b || (b.startsWith('/') && b.endsWith('/') && new RegExp(b.slice(1, -1)).test(a ?? ''));
  return (
    eq(h.rule, x.rule) &&
    eq(h.layer, x.layer) &&
    eq(h.action, x.action) &&
    eq(h.ruleType, x.ruleType) &&
    eq(h.kind, x.kind) &&
    eq(h.direction, x.direction) &&
    (x.port === undefined || h.port?.toLowerCase() === x.port.toLowerCase()) &&
    (x.inferred === undefined || !!h.inferred === x.inferred) &&
    (x.unmodelled === undefined || !!h.unmodelled === x.unmodelled) &&
    (x.ambiguous === undefined || !!h.ambiguous === x.ambiguous) &&
    (x.flow === undefined || !!h.flow === x.flow)
  );
}

function check(t: WalkResult, x: Expect, what: string): void {
  const summary = `${what}\n${t.hops.map((h, i) => `  ${i + 1}. ${h.at} | ${h.layer ?? ''} ${h.rule ?? ''} | ${h.action}${h.inferred ? ' (inferred)' : ''}${h.unmodelled ? ' (unmodelled)' : ''}`).join('\n')}\n  => ${t.verdict}: ${t.reason}`;
  expect(t.verdict, summary).toBe(x.verdict);
  if (x.reasonMatches) expect(t.reason, summary).toMatch(new RegExp(x.reasonMatches));
  if (x.final) expect(t.final, summary).toMatchObject(x.final);
  if (x.egress) expect(t.egress, summary).toMatchObject(x.egress);
  if (x.deciding) {
    const d = t.hops[t.deciding];
    expect(d, summary).toBeDefined();
    expect(hopMatches(d, x.deciding), `${summary}\n  deciding hop ${t.deciding + 1} should match ${JSON.stringify(x.deciding)}`).toBe(true);
  }
  if (x.dependsOnUnmodelled !== undefined) expect(!!t.dependsOnUnmodelled, summary).toBe(x.dependsOnUnmodelled);
  const kinds = (t.caveats ?? []).map((c) => c.kind);
  for (const k of x.caveats ?? []) expect(kinds, summary).toContain(k);
  for (const k of x.noCaveats ?? []) expect(kinds, summary).not.toContain(k);
  for (const hx of x.hops ?? []) expect(t.hops.some((h) => hopMatches(h, hx)), `${summary}\n  expected a hop like ${JSON.stringify(hx)}`).toBe(true);
  for (const hx of x.noHops ?? []) expect(t.hops.some((h) => hopMatches(h, hx)), `${summary}\n  expected no hop like ${JSON.stringify(hx)}`).toBe(false);
}

const files = readdirSync(path.join(DIR, 'scenarios'))
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('walk scenarios', () => {
  it('there are at least 30, each with a source and a reason', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });
  for (const f of files) {
    const s = JSON.parse(readFileSync(path.join(DIR, 'scenarios', f), 'utf8')) as Scenario;
    it(`${f.replace(/\.json$/, '')}: ${s.title}`, () => {
      expect(s.why.length, 'why').toBeGreaterThan(10);
      expect([s.source].flat().every((x) => x.length > 5), 'source').toBe(true);
      // What a real node does is stated in full — its final addresses and the rule or step that decides —
      // and the sources are public ones, never this project's own issues or private notes.
      expect(s.expect.final, 'final addresses').toBeDefined();
      expect(s.expect.deciding, 'deciding hop').toBeDefined();
      for (const x of [s.source].flat()) expect(x, 'source').not.toMatch(/hnsight issue|\/seeds\/|\/work\/research/i);
      const m = loadScenario(s, f);
      const t = walkFlow(m, s.flow, { reply: !!s.reply });
      check(t, s.expect, `${f} (${s.change})`);
      if (s.reply) {
        expect(t.reply, 'reply walked').toBeDefined();
        check(t.reply!, s.reply, `${f} reply`);
      }
      // Whatever the bundle says, the result is JSON-serialisable (CLI --json, the UI).
      expect(() => JSON.stringify(t)).not.toThrow();
    });
  }
});
