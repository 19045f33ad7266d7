// The line table of a VFP dump on disk counted on the main thread while the worker scans it without one
// (services/bundle/line-tables.ts): the index must answer every line as the scan that counts its own
// table does — with a UTF-8 BOM too (the index reads the bytes after it) — and must not take a table
// counted over other bytes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBundleSource } from '../../../parsers/bundle/parse-file.ts';
import { FileBytes } from '../../../services/bundle/file-bytes.ts';
import { attachLines, countLines, type LineJob } from '../../../services/bundle/line-tables.ts';
import type { VfpIndex } from '../../../parsers/vfp/index-types.ts';
import { fixture, toCrlf } from '../vfp/fixture.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A dump over 16 MiB (read on demand, not whole): the fixture's ports repeated with filler between. */
function bigDump(text: string, fillerLines: number, bom: boolean): Buffer {
  const ports = text.slice(text.indexOf('Policy for port'));
  const filler = 'x'.repeat(70) + '\r\n';
  const parts = [bom ? '\uFEFF' : '', text];
  let size = text.length;
  for (let k = 0; size < 17 * 1024 * 1024; k++) {
    const block = filler.repeat(fillerLines + (k % 7)) + ports;
    parts.push(block);
    size += block.length;
  }
  return Buffer.from(parts.join(''), 'utf8');
}

function lines(ix: VfpIndex) {
  return { lines: ix.lines, ports: ix.ports.map((p) => [p.line, p.lineStart]), rules: [...ix.ruleLine], groups: [...ix.groupLine], at: [0, 1, 4095, 65536, 65537, 1 << 20, 3 << 22, ix.bytes - 1].map((b) => ix.lineAt(b)) };
}

describe('a dump line table counted beside the scan', () => {
  it('answers every line as the scan that counts its own, with or without a BOM', { timeout: 120_000 }, () => {
    const text = toCrlf(fixture('vfpOutput-two-ports.txt'));
    fc.assert(
      fc.property(fc.boolean(), fc.integer({ min: 1, max: 900 }), (bom, fillerLines) => {
        const file = path.join(dir, `vfpOutput-${bom}-${fillerLines}.txt`);
        const bytes = bigDump(text, fillerLines, bom);
        writeFileSync(file, bytes);
        const own = parseBundleSource('vfpOutput.txt', new FileBytes(file, bytes.length, 'vfpOutput.txt'));
        const split = parseBundleSource('vfpOutput.txt', new FileBytes(file, bytes.length, 'vfpOutput.txt'), { countLines: false });
        if (own.content.type !== 'vfp' || split.content.type !== 'vfp') throw new Error('not read as a VFP dump');
        expect(split.content.bytes.whole).toBeUndefined();
        expect(split.content.index.lineTable).toBeUndefined();
        const job: LineJob = { path: file, size: bytes.length, name: 'vfpOutput.txt' };
        countLines(job);
        expect(job.offset).toBe(bom ? 3 : 0);
        attachLines(split.content.index, split.content.bytes, job);
        // Taken as it is: no second count.
        expect(split.content.index.lineTable).toBe(job.table);
        expect(lines(split.content.index)).toEqual(lines(own.content.index));
        rmSync(file);
      }),
      { numRuns: 4 },
    );
  });

  it('does not take a table counted over other bytes: the index counts its own', { timeout: 120_000 }, () => {
    const text = toCrlf(fixture('vfpOutput-two-ports.txt'));
    const a = path.join(dir, 'a.txt');
    const b = path.join(dir, 'b.txt');
    const bytes = bigDump(text, 40, false);
    writeFileSync(a, bytes);
    // The same size, other lines: a table of b would pass a check on the size alone.
    writeFileSync(b, Buffer.from(bytes.toString('latin1').replace(/x\r\nx/g, 'xx\r\n'), 'latin1'));
    const split = parseBundleSource('vfpOutput.txt', new FileBytes(a, bytes.length, 'vfpOutput.txt'), { countLines: false });
    const own = parseBundleSource('vfpOutput.txt', new FileBytes(a, bytes.length, 'vfpOutput.txt'));
    if (own.content.type !== 'vfp' || split.content.type !== 'vfp') throw new Error('not read as a VFP dump');
    const job: LineJob = { path: b, size: bytes.length, name: 'vfpOutput.txt' };
    countLines(job);
    attachLines(split.content.index, split.content.bytes, job);
    expect(split.content.index.lineTable).not.toBe(job.table);
    expect(lines(split.content.index)).toEqual(lines(own.content.index));
  });
});
