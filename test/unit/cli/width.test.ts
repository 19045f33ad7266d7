// The CLI's text fits the terminal (issue #23 point 11): every line of inspect, trace and diff within
// COLUMNS=80 on the demos and on the hand-written foreign bundles, words (file:line, IPs, rule names)
// never broken, continuation lines indented under their line, --json left as it is.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, repo } from '../../helpers/cli.ts';
import { outputColumns, wrapText } from '../../../cli/format/wrap.ts';
import { progressText } from '../../../cli/format/progress-text.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { walkPresets } from '../../../analysis/walk/presets.ts';
import type { Flow } from '../../../analysis/walk/types.ts';

const BUNDLES = ['assets/demo/l2bridge-node', 'assets/demo/overlay-node', 'test/fixtures/foreign/aks-win-zip-2025', 'test/fixtures/foreign/ws2019-flannel-l2bridge-2020', 'test/fixtures/foreign/ws2022-overlay-2024'].map((b) => path.join(repo, b));
const flows = new Map<string, Flow[]>();

beforeAll(async () => {
  for (const b of BUNDLES) flows.set(b, walkPresets(await loadBundle(b)).map((p) => p.flow));
});

const saved = process.env.COLUMNS;
afterEach(() => {
  if (saved === undefined) delete process.env.COLUMNS;
  else process.env.COLUMNS = saved;
});

async function at(columns: number, ...args: string[]) {
  process.env.COLUMNS = String(columns);
  return runCli(...args);
}
const wide = (s: string) => s.split('\n').filter((l) => [...l].length > 80);
const words = (s: string) => s.split(/\s+/).filter(Boolean);
/** The same text but for white space, and every word that fits a line (< 60 columns) kept whole and in order. */
function sameWords(narrow: string, free: string): void {
  expect(narrow.replace(/\s+/g, '')).toBe(free.replace(/\s+/g, ''));
  const have = words(narrow);
  let i = 0;
  for (const w of words(free).filter((x) => [...x].length < 60)) {
    while (i < have.length && have[i] !== w) i++;
    expect(i < have.length, `"${w}" kept whole`).toBe(true);
    i++;
  }
}
const traceArgs = (b: string, f: Flow) => ['trace', b, '--from', f.srcIp, '--to', `${f.dstIp}${f.dstPort !== undefined ? `:${f.dstPort}` : ''}`, '--proto', f.proto];

describe('text output within COLUMNS=80', () => {
  for (const b of BUNDLES) {
    const name = path.basename(b);
    it(`inspect ${name}: every line fits, the same words in the same order`, async () => {
      const narrow = await at(80, 'inspect', b);
      const free = await at(100000, 'inspect', b);
      expect(wide(narrow.stdout)).toEqual([]);
      sameWords(narrow.stdout, free.stdout);
      expect(narrow.code).toBe(free.code);
    });
    it(`trace ${name}: every hop line fits, words (file:line, IPs) whole`, async () => {
      const fs = flows.get(b)!;
      expect(fs.length).toBeGreaterThan(0);
      for (const f of fs.slice(0, 3)) {
        const narrow = await at(80, ...traceArgs(b, f));
        const free = await at(100000, ...traceArgs(b, f));
        expect(wide(narrow.stdout), JSON.stringify(f)).toEqual([]);
        sameWords(narrow.stdout, free.stdout);
      }
    });
  }
  it('diff of the two demos fits', async () => {
    const r = await at(80, 'diff', BUNDLES[0], BUNDLES[1]);
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(wide(r.stdout)).toEqual([]);
  });
  it('help fits, its paragraphs reflowed rather than broken twice', async () => {
    const narrow = await at(80, 'help');
    const free = await at(100000, 'help');
    expect(wide(narrow.stdout)).toEqual([]);
    expect(words(narrow.stdout)).toEqual(words(free.stdout));
    // A paragraph line is full up to the last word that fits: no short line in the middle of one.
    const lines = narrow.stdout.split('\n');
    for (let i = 0; i + 1 < lines.length; i++) {
      const [a, b] = [lines[i], lines[i + 1]];
      if (/^ {6}\S/.test(a) && /^ {6}\S/.test(b)) expect([...a].length + 1 + b.trim().split(' ')[0].length, `${a}|${b}`).toBeGreaterThan(80);
    }
  });
  it('--json is data: not wrapped', async () => {
    const f = flows.get(BUNDLES[0])![0];
    const a = await at(80, ...traceArgs(BUNDLES[0], f), '--json');
    const b = await at(100000, ...traceArgs(BUNDLES[0], f), '--json');
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout).verdict).toBeTruthy();
  });
  it('the counts are pluralised ("1 error", not "1 errors" or "error(s)")', async () => {
    const r = await at(100000, 'inspect', BUNDLES[0]);
    expect(r.stdout).not.toMatch(/\d+ (error|warning|info finding)\(s\)/);
    expect(r.stdout).not.toMatch(/\b1 (errors|warnings)\b/);
    expect(r.stdout).toMatch(/findings: 2 errors, 0 warnings/);
  });
});

describe('wrapText', () => {
  const line = fc
    .tuple(fc.nat({ max: 12 }), fc.array(fc.stringMatching(/^[\w.:/\\-]{1,20}$/), { minLength: 1, maxLength: 40 }))
    .map(([indent, ws]) => ' '.repeat(indent) + ws.join(' '));
  it('every line fits; words short enough stay whole and in order; continuation lines hang under their line', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), fc.integer({ min: 40, max: 140 }), (lines, cols) => {
        const text = lines.join('\n');
        expect(words(wrapText(text, cols))).toEqual(words(text));
        for (const l of lines) {
          const out = wrapText(l, cols).split('\n');
          for (const o of out) expect([...o].length).toBeLessThanOrEqual(cols);
          // The first line keeps the line's indent; the ones after it hang further in.
          const lead = /^ */.exec(l)![0].length;
          expect(out[0].slice(0, lead).trim()).toBe('');
          expect(out[0][lead]).not.toBe(' ');
          for (const o of out.slice(1)) expect(/^ */.exec(o)![0].length).toBeGreaterThan(lead);
        }
      }),
    );
  });
  it('never breaks inside a file:line or an address; a word wider than the line breaks after a separator', () => {
    const s = `      at C:\\ProgramData\\Microsoft\\Windows\\Containers\\some\\deep\\folder\\vfpOutput.txt:12345 endpoint.txt:590 10.244.32.9 fd00:10:244::5 ${'x'.repeat(20)}`;
    const out = wrapText(s, 40);
    for (const tok of ['endpoint.txt:590', '10.244.32.9', 'fd00:10:244::5']) expect(out.split(/\s+/)).toContain(tok);
    expect(out).toMatch(/\\\n\s+(folder\\)?vfpOutput\.txt:12345/);
    for (const l of out.split('\n')) expect(l.length).toBeLessThanOrEqual(40);
  });
  it('width: COLUMNS, else the terminal, else 100', () => {
    expect(outputColumns({ isTTY: true, columns: 132 }, { COLUMNS: '80' })).toBe(80);
    expect(outputColumns({ isTTY: true, columns: 132 }, {})).toBe(132);
    expect(outputColumns({ isTTY: false, columns: 132 }, {})).toBe(100);
    expect(outputColumns({}, { COLUMNS: 'wide' })).toBe(100);
  });
});

describe('load progress', () => {
  it('never counts past the total, with a file in the folder that is not part of the bundle', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-progress-'));
    cpSync(BUNDLES[0], dir, { recursive: true });
    writeFileSync(path.join(dir, 'notes-from-the-engineer.txt'), 'checked the node at 10:00\n');
    const shown: string[] = [];
    let past = false;
    await loadBundle(dir, {
      onProgress: (p) => {
        if (p.phase !== 'reading' || !p.file) return;
        // The loader reports the end of the last file with its name still set: counting `filesDone + 1` said 27/26.
        past ||= p.filesDone + 1 > p.filesTotal;
        shown.push(progressText(p, p.file, 200));
      },
    });
    expect(past).toBe(true);
    expect(shown.length).toBeGreaterThan(0);
    for (const s of shown) {
      const [, n, total] = /^reading (\d+)\/(\d+) /.exec(s)!;
      expect(Number(n)).toBeGreaterThanOrEqual(1);
      expect(Number(n)).toBeLessThanOrEqual(Number(total));
    }
    expect(progressText({ filesDone: 3, filesTotal: 9 }, 'x'.repeat(300), 80).length).toBeLessThan(80);
  });
});
