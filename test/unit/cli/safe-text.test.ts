// Terminal escapes in bundle text (issue 15): what a bundle says is printed, never acted on by the
// terminal — in the text and JSON outputs of inspect, trace and diff, and in error messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { safeJson, safeText } from '../../../cli/format/safe-text.ts';
import { failureText } from '../../../cli/format/failure-text.ts';
import { runCli } from '../../helpers/cli.ts';
import { DEMO } from '../../fuzz/hostile.ts';

const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2K';
/** Anything a terminal would act on: C0 but tab and newline, DEL, C1, direction overrides. */
// eslint-disable-next-line no-control-regex -- control characters are what the test looks for
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('safeText and safeJson', () => {
  it('spell out escape sequences, carriage returns, C1 controls and direction overrides', () => {
    expect(safeText(`host ${TITLE}${CLEAR}x`)).toBe('host \\x1B]0;pwned\\x07\\x1B[2Kx');
    expect(safeText('ok\rFAKE')).toBe('ok\\x0DFAKE');
    expect(safeText('\u009b31m \u202egnp.exe')).toBe('\\x9B31m \\u202Egnp.exe');
    // hnsight's own layout and ordinary text stay as they are.
    expect(safeText('a\tb\nc é 中 → ✓')).toBe('a\tb\nc é 中 → ✓');
  });

  it('keep JSON the same value, with nothing raw a terminal acts on', () => {
    const v = { host: `${TITLE}${CLEAR}`, c1: '\u009b2J', bidi: 'a\u202eb', ls: 'x\u2028y', ok: 'é' };
    const out = safeJson(v);
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).not.toContain('\u2028');
    expect(JSON.parse(out)).toEqual(v);
  });
});

describe('the CLI on a bundle that carries escape sequences', () => {
  let dir: string;
  beforeAll(() => {
    dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'hnsight-esc-')), 'node');
    cpSync(DEMO, dir, { recursive: true });
    // The host name in ip.txt retitles the terminal and clears the line; a file name does it too.
    const ip = path.join(dir, 'ip.txt');
    const text = readFileSync(ip).subarray(2).toString('utf16le').replaceAll('win-fl-l2b-01', `aks${TITLE}${CLEAR}win`);
    writeFileSync(ip, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    writeFileSync(path.join(dir, `notes${TITLE}.txt`), 'x');
  });
  afterAll(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

  it('inspect prints the host and the file name with their escapes spelled out', async () => {
    const r = await runCli('inspect', dir, '--verbose');
    expect(r.stdout).toContain('aks\\x1B]0;pwned\\x07\\x1B[2Kwin');
    expect(r.stdout).toContain('notes\\x1B]0;pwned\\x07.txt');
    expect(r.stdout).not.toMatch(RAW_CONTROL);
  });

  it('inspect --json gives back the exact names, escaped as JSON', async () => {
    const r = await runCli('inspect', dir, '--json');
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    const doc = JSON.parse(r.stdout) as { files: { name: string }[] };
    expect(doc.files.map((f) => f.name)).toContain(`notes${TITLE}.txt`);
  });

  it('trace and diff print nothing raw either', async () => {
    const t = await runCli('trace', dir, '--from', '10.244.32.3', '--to', '10.96.0.10:53', '--proto', 'udp');
    expect(t.stdout.length).toBeGreaterThan(0);
    expect(t.stdout).not.toMatch(RAW_CONTROL);
    const d = await runCli('diff', DEMO, dir);
    expect(d.stdout).toContain('\\x1B');
    expect(d.stdout).not.toMatch(RAW_CONTROL);
  });

  it('an error message quoting a path prints it escaped', async () => {
    const r = await runCli('inspect', path.join(dir, `missing${CLEAR}`));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing\\x1B[2K');
    expect(r.stderr).not.toMatch(RAW_CONTROL);
  });
});

describe('the cluster commands on a node whose host name carries escapes', () => {
  let root: string;
  const HOST = `aks${TITLE}${CLEAR}\u009b2J\u202ewin`;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'hnsight-esc-cluster-'));
    const a = path.join(root, 'node-a');
    cpSync(DEMO, a, { recursive: true });
    const ip = path.join(a, 'ip.txt');
    const text = readFileSync(ip).subarray(2).toString('utf16le').replaceAll('win-fl-l2b-01', HOST);
    writeFileSync(ip, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    cpSync(DEMO, path.join(root, 'node-b'), { recursive: true });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('fleet, text and JSON', async () => {
    const t = await runCli('fleet', root);
    expect(t.stdout).toContain('aks\\x1B]0;pwned\\x07\\x1B[2K\\x9B2J\\u202Ewin');
    expect(t.stdout + t.stderr).not.toMatch(RAW_CONTROL);
    const j = await runCli('fleet', root, '--json');
    expect(j.stdout).not.toMatch(RAW_CONTROL);
    expect(j.stdout).toContain('\\u009B2J\\u202Ewin');
    expect(JSON.stringify(JSON.parse(j.stdout))).toContain(JSON.stringify(HOST).slice(1, -1));
  });

  it('inspect --cluster, text and JSON (C1 and direction marks escaped in JSON too)', async () => {
    const t = await runCli('inspect', root, '--cluster', '--verbose');
    expect(t.stdout).toContain('\\x1B]0;pwned');
    expect(t.stdout + t.stderr).not.toMatch(RAW_CONTROL);
    const j = await runCli('inspect', root, '--cluster', '--json');
    expect(j.stdout).not.toMatch(RAW_CONTROL);
    expect(j.stdout).toContain('\\u009B2J\\u202Ewin');
    expect(JSON.stringify(JSON.parse(j.stdout))).toContain(JSON.stringify(HOST).slice(1, -1));
  });

  it('a trace across the nodes, text and JSON', async () => {
    for (const extra of [[], ['--json']]) {
      const r = await runCli('trace', path.join(root, 'node-a'), path.join(root, 'node-b'), '--from', '10.244.32.3', '--to', '10.96.0.10:53', '--proto', 'udp', ...extra);
      expect(r.stdout).toContain(extra.length ? '\\u001b]0;pwned\\u0007' : '\\x1B]0;pwned\\x07');
      expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROL);
    }
  });
});

describe('an unexpected failure on the terminal', () => {
  it('shows the message and the first frames, and says how much it left out', () => {
    const e = new RangeError('x'.repeat(1_000_000));
    e.stack = `RangeError: ${e.message}\n` + Array.from({ length: 5000 }, (_, i) => `    at f${i} (/src/a.ts:${i}:1)`).join('\n');
    const t = failureText(e);
    expect(t.length).toBeLessThan(6000);
    expect(t.startsWith(`RangeError: ${'x'.repeat(2000)}… (998000 more characters)`)).toBe(true);
    expect(t).toContain('    at f0 (/src/a.ts:0:1)');
    expect(t).toContain('    at f11 (/src/a.ts:11:1)');
    expect(t).not.toContain('at f12 ');
    expect(t.endsWith('    … 4988 more frames')).toBe(true);
  });

  it('keeps a short error whole, and a thrown non-error as its text', () => {
    const e = new TypeError('no such port');
    const t = failureText(e);
    expect(t.split('\n')[0]).toBe('TypeError: no such port');
    expect(t.split('\n').slice(1).every((l) => /^\s+at /.test(l))).toBe(true);
    expect(failureText('plain')).toBe('plain');
  });
});
