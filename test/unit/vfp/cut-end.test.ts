// A vfpOutput.txt the collector stopped writing (issue #23 point 7): where it ends is said at its last
// line, naming what is incomplete. The expectation is worked out here from the text alone (the last
// LAYER/GROUP/RULE line before the cut and whether vfpctrl's `Command … succeeded!` trailer follows it),
// not from the parser (../shared/reference/collectlogs-formats.md §3, §5.2).
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanVfpOutput } from '../../../parsers/vfp/index.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { buildSummary } from '../../../analysis/view-models/summary.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { CORPUS, corpusBytes } from '../../helpers/corpus.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const demo = (node: string) => path.join(root, 'assets/demo', node);
const enc = new TextEncoder();
const cutMessages = (text: string) => scanVfpOutput(enc.encode(text), 'vfpOutput.txt').issues.filter((i) => /truncated/.test(i.message));

/** The first n lines (CRLF kept), as the file would be when the writer stopped after line n. */
const head = (lines: string[], n: number) => lines.slice(0, n).join('\n') + '\n';

/** What the text says about a cut after line n: the open block, or undefined when no block is open. */
function openBlock(lines: string[], n: number): { rule?: string; group?: string; layer?: string; port?: string; lastContent: number } | undefined {
  let lastContent = n;
  while (lastContent > 0 && lines[lastContent - 1].trim() === '') lastContent--;
  let kw = -1;
  for (let i = n - 1; i >= 0; i--) {
    const t = lines[i].trim();
    if (/^Command \S+ succeeded!$/.test(t)) return undefined;
    if (/^(LAYER|GROUP|RULE) :/.test(t)) {
      kw = i;
      break;
    }
  }
  if (kw < 0) return undefined;
  /** The name of the nearest block of this kind at or above line `from`, not crossing `stop`. */
  const find = (re: RegExp, from: number, stop: RegExp) => {
    for (let i = from; i >= 0; i--) {
      const m = re.exec(lines[i].trim());
      if (m) return m[1].trim();
      if (stop.test(lines[i].trim())) return undefined;
    }
    return undefined;
  };
  const k = lines[kw].trim();
  let rule: string | undefined;
  if (k.startsWith('RULE')) {
    // A rule printed without an ID (`RULE :`) goes by its friendly name on the next line, if written.
    rule = k.replace(/^RULE\s*:\s*/, '') || (kw + 1 < lastContent ? /^Friendly name\s*:\s*(.*)$/.exec(lines[kw + 1].trim())?.[1]?.trim() : undefined);
  }
  const group = k.startsWith('LAYER') ? undefined : find(/^GROUP : (.*)$/, kw, /^(LAYER|Policy for port)\b/);
  let portAt = kw;
  while (portAt >= 0 && !/^Policy for port :/.test(lines[portAt].trim())) portAt--;
  return { rule, group, layer: find(/^LAYER : (.*)$/, kw, /^Policy for port\b/), port: lines[portAt + 1]?.trim(), lastContent };
}

describe.each(['l2bridge-node', 'overlay-node'])('the demo %s vfpOutput.txt, cut', (node) => {
  const text = readFileSync(path.join(demo(node), 'vfpOutput.txt'), 'latin1');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();

  it('whole: no cut is reported', () => {
    expect(cutMessages(text)).toEqual([]);
  });

  it('property: a cut anywhere inside a LAYER/GROUP/RULE block is one error at its last line naming the rule, group, layer and port', () => {
    // Every line of the first 250, then every 13th: all shapes of a block, and ports far into the file.
    const points = [...Array.from({ length: 250 }, (_, i) => i + 1), ...Array.from({ length: Math.floor(lines.length / 13) }, (_, i) => 250 + i * 13)].filter((n) => n < lines.length);
    let inside = 0;
    for (const n of points) {
      const open = openBlock(lines, n);
      if (!open) continue;
      inside++;
      const got = cutMessages(head(lines, n));
      expect(got.length, `cut after line ${n}`).toBe(1);
      expect(got[0].severity).toBe('error');
      expect(got[0].line, `cut after line ${n}`).toBe(open.lastContent);
      for (const name of [open.rule, open.group, open.layer, open.port]) if (name) expect(got[0].message, `cut after line ${n}`).toContain(name);
      if (open.rule) expect(got[0].message).toContain(`RULE ${open.rule}`);
    }
    expect(inside).toBeGreaterThan(100);
  });

  it('cut right after a complete vfpctrl output: the ports the table lists and the file lacks are named', () => {
    const trailers = lines.flatMap((l, i) => (/^Command (get-rule-counter|list-rule) succeeded!/.test(l.trim()) ? [i + 1] : []));
    expect(trailers.length).toBeGreaterThan(2);
    const got = cutMessages(head(lines, trailers[1]));
    expect(got).toHaveLength(1);
    expect(got[0].message).toMatch(/the port table lists \d+ ports, but the file ends after port [0-9A-F-]{36} \(port 2 of \d+\)/);
  });
});

describe.skipIf(!CORPUS)('a pasted vfpctrl listing without the trailer (../shared/corpus)', () => {
  it('the SdnDiagnostics#629 listing, whole and cut, is not said to be cut: pastes leave the trailer out', () => {
    const t = new TextDecoder().decode(corpusBytes('vfp-list-rule__microsoft-SdnDiagnostics-pr-629.txt'));
    expect(cutMessages(t)).toEqual([]);
    expect(cutMessages(t.split('\n').slice(0, 12).join('\n'))).toEqual([]);
  });
});

describe('a bundle whose vfpOutput.txt is cut', () => {
  it('lists the file as having an error, at the line where it stops; the checks that read VFP rules only warn', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-vfp-cut-'));
    try {
      cpSync(demo('l2bridge-node'), dir, { recursive: true });
      const lines = readFileSync(path.join(dir, 'vfpOutput.txt'), 'latin1').split('\n');
      const n = lines.findIndex((l, i) => i > 4990 && /^\s+Flags : /.test(l)) + 1;
      writeFileSync(path.join(dir, 'vfpOutput.txt'), head(lines, n), 'latin1');
      const m = await loadBundle(dir);
      const s = buildSummary(m, 'x', 0);
      const f = s.files.find((x) => x.name === 'vfpOutput.txt')!;
      expect(f.errors).toBe(1);
      expect(f.issues.find((i) => i.severity === 'error')).toMatchObject({ line: n, message: expect.stringMatching(/^VFP dump truncated: the file stops inside RULE \S+ \(before its FlagsEx line\)/) });
      expect(s.filesBroken).toBeGreaterThanOrEqual(1);
      // The rules the cut file never reached are not missing from the node: the checks that would
      // accuse on them do not say error, and say why they are not sure.
      const fs = runChecks(m);
      const vfpBased = fs.filter((x) => x.id.startsWith('lb-rule') || x.id.startsWith('drift-'));
      expect(vfpBased.length).toBeGreaterThan(0);
      for (const x of vfpBased) {
        expect(x.severity, x.title).not.toBe('error');
        if (x.severity === 'warning') expect(x.explanation).toMatch(/Cannot be sure: vfpOutput\.txt could not be read completely \(vfpOutput\.txt:\d+: VFP dump truncated/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
