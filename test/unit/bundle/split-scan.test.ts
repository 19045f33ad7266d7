// A big VFP dump on disk scanned by two threads (services/bundle/split-scan.ts): the parse worker from
// the start, the main thread from the first port boundary after its claim, joined in the worker. The
// index and issues must be those of one thread's scan — the claim on a port header, inside a RULE
// line, in a dump of one port (nothing to hand over), with CRLF and a UTF-8 BOM — and a UTF-16 dump
// (re-encoded, read whole) is never split.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBundleSource } from '../../../parsers/bundle/parse-file.ts';
import { claimAt, NOT_STARTED, SPLIT_BLOCK } from '../../../parsers/vfp/scan-split.ts';
import { FileBytes } from '../../../services/bundle/file-bytes.ts';
import { ParsePool } from '../../../services/bundle/parse-pool.ts';
import { SplitScan } from '../../../services/bundle/split-scan.ts';
import { fixture, toCrlf } from '../vfp/fixture.ts';
import { indexSummary } from '../vfp/scan-inputs.ts';
import type { ParsedFile } from '../../../parsers/bundle/parsed-file.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-split-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A dump over 16 MiB (read on demand): the fixture's head, then `body` repeated, with one padding line
 * placed so that, at about 9 MiB, the `anchor` text of a body starts `shift` bytes past a multiple of
 * the claim block (in the bytes after a BOM, as the scan reads them). Returns the text and that multiple.
 */
function alignedDump(head: string, body: string, anchor: string, shift: number, eol: string): { text: string; at: number } {
  const parts = [head];
  let size = head.length;
  const inBody = body.indexOf(anchor);
  while (size < 9 << 20) {
    parts.push(body);
    size += body.length;
  }
  const at = (Math.floor((size + 1024) / SPLIT_BLOCK) + 1) * SPLIT_BLOCK;
  const pad = at + shift - size - inBody - eol.length;
  parts.push('x'.repeat(pad) + eol);
  size += pad + eol.length;
  while (size < 17 << 20) {
    parts.push(body);
    size += body.length;
  }
  return { text: parts.join(''), at };
}

async function splitLoad(file: string, size: number, claim: number | 'auto'): Promise<{ parsed: ParsedFile; split: SplitScan; offset: number }> {
  const pool = new ParsePool();
  const split = new SplitScan();
  try {
    const head = new FileBytes(file, size, 'vfpOutput.txt');
    const b = head.read(0, 3);
    head.close();
    const offset = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
    if (claim !== 'auto') expect(claimAt(split.ctl, claim)).toBe(true);
    const parsed = pool.parse('vfpOutput.txt', { path: file, maxBytes: size, countLines: false, split: split.handle });
    if (claim === 'auto') await parsed;
    await split.run(file, size, 'vfpOutput.txt', offset, () => undefined, claim === 'auto' ? {} : { claimed: claim });
    return { parsed: await parsed, split, offset };
  } finally {
    await pool.close();
    split.close();
  }
}

function expectOneThreads(parsed: ParsedFile, file: string, size: number): void {
  const one = parseBundleSource('vfpOutput.txt', new FileBytes(file, size, 'vfpOutput.txt'));
  if (parsed.content.type !== 'vfp' || one.content.type !== 'vfp') throw new Error('not read as a VFP dump');
  expect(indexSummary(parsed.content.index, { ruleNames: true })).toEqual(indexSummary(one.content.index, { ruleNames: true }));
  expect(parsed.issues).toEqual(one.issues);
}

describe('a big dump on disk scanned by two threads', () => {
  const two = fixture('vfpOutput-two-ports.txt');
  const cut = two.indexOf('Policy for port');
  const cases: { name: string; anchor: string; shift: number; bom: boolean; crlf: boolean; joined: boolean }[] = [
    { name: 'the claim on a port header (LF)', anchor: 'Policy for port', shift: 0, bom: false, crlf: false, joined: true },
    { name: 'the claim inside a RULE line (CRLF, BOM)', anchor: 'RULE', shift: 2, bom: true, crlf: true, joined: true },
    { name: 'the claim a byte before a port header (CRLF)', anchor: 'Policy for port', shift: 1, bom: false, crlf: true, joined: true },
  ];
  for (const c of cases) {
    it(c.name, { timeout: 120_000 }, async () => {
      const eol = c.crlf ? '\r\n' : '\n';
      const conv = (t: string) => (c.crlf ? toCrlf(t) : t);
      const { text, at } = alignedDump(conv(two.slice(0, cut)), conv(two.slice(cut)), c.anchor, c.shift, eol);
      const file = path.join(dir, 'vfpOutput.txt');
      const bytes = Buffer.from((c.bom ? '\uFEFF' : '') + text, 'utf8');
      writeFileSync(file, bytes);
      const r = await splitLoad(file, bytes.length, at);
      expect(r.offset).toBe(c.bom ? 3 : 0);
      expect(r.split.claimed).toBe(at);
      // The main thread's part starts at the first port boundary at or after the claim.
      const next = text.indexOf('Policy for port', at);
      expect(r.split.tailFrom).toBe(next);
      // The worker took that part instead of scanning it again.
      expect(r.split.joined).toBe(c.joined);
      expectOneThreads(r.parsed, file, bytes.length);
      rmSync(file);
    });
  }

  it('a dump of one port: nothing after the claim to hand over, the worker scans it all', { timeout: 120_000 }, async () => {
    const one = fixture('VfpCtrl.PortGuid.4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF.txt');
    const body = one.slice(one.indexOf('GROUP'));
    const { text, at } = alignedDump(one, body, 'RULE', 1, '\n');
    const file = path.join(dir, 'VfpCtrl.PortGuid.4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF.txt');
    writeFileSync(file, text);
    const r = await splitLoad(file, Buffer.byteLength(text), at);
    expect(r.split.claimed).toBe(at);
    expect(r.split.tailFrom).toBe(-1);
    expect(r.split.joined).toBe(false);
    if (r.parsed.content.type !== 'vfp') throw new Error('not read as a VFP dump');
    expect(r.parsed.content.index.ports.length).toBe(1);
    rmSync(file);
  });

  it('a UTF-16 dump is read whole and never split', { timeout: 120_000 }, async () => {
    const text = toCrlf(two) + toCrlf(two.slice(cut)).repeat(Math.ceil((9 << 20) / two.length));
    const file = path.join(dir, 'vfpOutput.txt');
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    writeFileSync(file, bytes);
    const r = await splitLoad(file, bytes.length, 'auto');
    expect(r.split.claimed).toBe(-1);
    expect(Atomics.load(r.split.ctl, 0)).toBe(NOT_STARTED);
    if (r.parsed.content.type !== 'vfp') throw new Error('not read as a VFP dump');
    expect(r.parsed.content.index.ports.length).toBeGreaterThan(100);
    rmSync(file);
  });
});
