// A VFP dump past 2 GiB (issue 27: a 4 GiB vfpOutput.txt must load). Offsets past 2^31 do not fit the
// 32-bit integers JavaScript's shift operators work on: a block number taken with `offset >> 16` turns
// negative there, and the scan looped for tens of minutes over a 4 GiB dump. These tests read a
// virtual file (nothing held: each window is filled from a repeating pattern) whose ports lie on both
// sides of 2 GiB, and check lines and offsets against the same text scanned on its own.
import { describe, expect, it } from 'vitest';
import { scanVfpOutput } from '../../../parsers/vfp/scan.ts';
import { blockOf, BLOCK, LineLocator, tableLength } from '../../../parsers/vfp/line-locator.ts';
import { lineFrom, type ByteSource } from '../../../parsers/vfp/byte-source.ts';
import { fixture, toCrlf } from './fixture.ts';

const enc = new TextEncoder();
const GiB2 = 2 ** 31;

/** head + filler lines (each `line` bytes, ending in LF) up to `fillTo` + tail, read like a pread. */
class VirtualDump implements ByteSource {
  readonly size: number;
  readonly #pattern: Uint8Array;
  constructor(
    readonly head: Uint8Array,
    readonly line: number,
    readonly fillTo: number,
    readonly tail: Uint8Array,
  ) {
    this.size = fillTo + tail.length;
    // Whole filler lines, about 1 MiB: a window is filled by copying it.
    const one = new Uint8Array(line).fill(0x78);
    one[line - 2] = 13;
    one[line - 1] = 10;
    this.#pattern = new Uint8Array(line * Math.ceil((1 << 20) / line));
    for (let k = 0; k < this.#pattern.length; k += line) this.#pattern.set(one, k);
  }
  read(offset: number, length: number, into?: Uint8Array): Uint8Array {
    const s = Math.max(0, Math.min(this.size, offset));
    const e = Math.max(s, Math.min(this.size, s + length));
    const out = into && into.length >= e - s ? into.subarray(0, e - s) : new Uint8Array(e - s);
    let p = s;
    while (p < e) {
      let n: number;
      if (p < this.head.length) {
        n = Math.min(e, this.head.length) - p;
        out.set(this.head.subarray(p, p + n), p - s);
      } else if (p < this.fillTo) {
        const r = (p - this.head.length) % this.line;
        const room = this.#pattern.length - r;
        n = Math.min(e, this.fillTo) - p;
        if (n > room) n = room;
        out.set(this.#pattern.subarray(r, r + n), p - s);
      } else {
        n = e - p;
        out.set(this.tail.subarray(p - this.fillTo, p - this.fillTo + n), p - s);
      }
      p += n;
    }
    return out;
  }
}

function lineCount(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === 10) n++;
  return n;
}

describe('a VFP dump past 2 GiB', () => {
  it('blockOf and tableLength do not wrap past 2^31 (a shift would)', () => {
    for (const x of [0, BLOCK - 1, BLOCK, GiB2 - 1, GiB2, GiB2 + 5 * BLOCK + 7, 2 ** 32 + 3, 4.5 * 2 ** 30, 2 ** 40]) {
      expect(blockOf(x)).toBe(Math.floor(x / BLOCK));
      expect(tableLength(x)).toBe(Math.floor(x / BLOCK) + 2);
    }
  });

  it('a line locator answers lines and line starts past 2 GiB from its checkpoint table', () => {
    // Lines of 100 bytes: line L starts at byte 100 (L − 1); the table is known without reading the file.
    const L = 100;
    const size = (Math.ceil(2 ** 32 / L) + 12_345) * L;
    const src = new VirtualDump(new Uint8Array(0), L, size, new Uint8Array(0));
    const blocks = blockOf(size) + 1;
    const table = new Float64Array(blocks + 1);
    for (let k = 0; k < blocks; k++) table[k] = Math.floor((k * BLOCK) / L);
    table[blocks] = size / L;
    const loc = new LineLocator(src, table);
    // The table is taken as given (a wrong length check would rebuild it: one pass over 4 GiB).
    expect(loc.built).toBe(true);
    for (const o of [0, 99, 100, GiB2 - 1, GiB2, GiB2 + 12_345, 3 * 2 ** 30 + 77, size - 1]) {
      expect(loc.lineAt(o)).toBe(1 + Math.floor(o / L));
    }
    for (const line of [1, 2, Math.floor(GiB2 / L) + 1, Math.floor(GiB2 / L) + 2, Math.floor((3 * 2 ** 30) / L), size / L]) {
      expect(loc.lineStart(line)).toBe((line - 1) * L);
    }
    expect(lineFrom(src, loc.lineStart(Math.floor(GiB2 / L) + 3)!, 200).text).toBe('x'.repeat(L - 2));
  });

  it('ports, rules and their lines on both sides of 2 GiB are those of the same text scanned alone', { timeout: 300_000 }, () => {
    const text = toCrlf(fixture('vfpOutput-two-ports.txt'));
    const head = enc.encode(text);
    // The tail: the same ports again, from the first port boundary on.
    const tail = enc.encode(text.slice(text.indexOf('Policy for port')));
    const L = 100;
    // Filler up to just past 2 GiB, ending on a line boundary.
    const fillTo = head.length + Math.ceil((GiB2 + 3 * BLOCK + 11 - head.length) / L) * L;
    const src = new VirtualDump(head, L, fillTo, tail);
    const scanned = scanVfpOutput(src, 'vfpOutput.txt');
    const big = scanned.value;
    const a = scanVfpOutput(head, 'vfpOutput.txt').value;
    const b = scanVfpOutput(tail, 'vfpOutput.txt').value;
    expect(scanned.issues.filter((i) => i.message.includes('internal error'))).toEqual([]);
    const before = lineCount(head) + (fillTo - head.length) / L;
    expect(big.totals).toEqual({ ports: a.totals.ports + b.totals.ports, layers: a.totals.layers + b.totals.layers, groups: a.totals.groups + b.totals.groups, rules: a.totals.rules + b.totals.rules });
    expect(big.ports.map((p) => p.name)).toEqual([...a.ports, ...b.ports].map((p) => p.name));
    expect(big.ports.slice(a.ports.length).map((p) => [p.byteStart, p.line])).toEqual(b.ports.map((p) => [p.byteStart + fillTo, p.line + before]));
    expect(big.ports.slice(0, a.ports.length).map((p) => p.line)).toEqual(a.ports.map((p) => p.line));
    const n = a.totals.rules;
    expect([...big.ruleByte.slice(n)]).toEqual([...b.ruleByte].map((x) => x + fillTo));
    expect([...big.ruleLine.slice(n)]).toEqual([...b.ruleLine].map((x) => x + before));
    expect([...big.ruleLine.slice(0, n)]).toEqual([...a.ruleLine]);
    expect(big.lines).toBe(before + b.lines);
    expect(big.lineAt(fillTo)).toBe(before + 1);
  });
});
