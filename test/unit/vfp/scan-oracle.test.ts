// The anchor-jumping scanner against the line-by-line oracle: same ports, layers (with priority and
// line), blocks (bytes and lines), line count and generation, whatever the input and wherever the
// decode-chunk edges fall (tiny chunkBytes put an edge inside every keyword sooner or later).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countNewlines, LineLocator } from '../../../parsers/vfp/line-locator.ts';
import { scanVfpOutput } from '../../../parsers/vfp/scan.ts';
import { fixture, toCrlf } from './fixture.ts';
import { lineScanOracle } from './line-scan-oracle.ts';
import { indexSummary, junkBytes, lineSoup } from './scan-inputs.ts';

const enc = new TextEncoder();

function expectSameAsOracle(bytes: Uint8Array, chunkBytes?: number): void {
  const fast = scanVfpOutput(bytes, 'f', { chunkBytes });
  const slow = lineScanOracle(bytes, 'f');
  expect(indexSummary(fast.value)).toEqual(indexSummary(slow.value));
  // The note a paster leaves as the last line ("(redacted)", "...", "<cut>") is the scanner's word
  // about the text, not about its index; it is tested on real pastes in recognise/nothing-silent.
  // So is where a cut dump stops (parsers/vfp/cut-end.ts, read from the finished index; tested in
  // vfp/cut-end.test.ts).
  expect(fast.issues.filter((i) => !i.message.startsWith('the text ends with ') && !i.message.startsWith('VFP dump truncated'))).toEqual(slow.issues);
  const idx = fast.value;
  idx.ports.forEach((p) => expect(idx.lineAt(p.byte)).toBe(p.line));
}

const TEXT = lineSoup([
  'LAYER : L1', '  GROUP : G1', '    RULE : R1', 'RULE :', 'RULES : 4', 'RULE', 'GROUP G', 'LAYER-x : y', 'RULE\t:\t', 'LAYER:x', 'layer : lower', ' RULE : \r',
  'RULE : R_UDP_GROUP', 'GROUP : LAYER_GROUP', '  LAYER : POLICY_LAYER', 'RULE : Blocked', 'UUUU', 'YYY', 'xRULE : a', 'GRO UP : a',
  'Policy for port : ', 'Policy for port : ABC', 'POLICY FOR PORT:', 'pOlIcY fOr PoRt :   X  ', 'Policy for port', 'ABC-DEF-123', '  GUID-1  ', 'Matched', 'Blocked', '====',
  'Blocked : TRUE', '  blocked: false', 'BLOCKED :no', 'Blocked : maybe', 'Enabled : TRUE', 'SomePolicy for port : x', 'Unblocked : TRUE',
  'Priority : 5', 'PRIORITY:7', 'Priority : x', 'Priority 9', 'Flags : 8195 terminating stateful ', 'Type : allow', 'Conditions:', '<none>',
  'Matched packets : 3', 'matched : 1', 'Command list-rule succeeded!', 'Command get-rule-counter succeeded!', 'COMMAND list-rule SUCCEEDED', 'Command x failed',
  ' ITEM LIST', 'item list', 'ITEM LIST x', '===========', 'ERROR: nope', 'Using default compartment', 'Port name  Mac Address  PortId', '---------  -----------  ------',
  '5C3A1D2E-8F4B-4C6A-9E1D-2B3C4D5E6F70 00-15-5D-AA-87-B8 5', '', '   ', '\r', '\t\r', 'é RULE : x', '  RULE : é', 'Policy for port : é',
]);
const CHUNK = fc.option(fc.integer({ min: 1, max: 48 }), { nil: undefined });

describe('scanVfpOutput == line-by-line oracle', () => {
  it('random line soup, random chunk sizes', () => {
    fc.assert(
      fc.property(TEXT, CHUNK, (text, chunkBytes) => expectSameAsOracle(enc.encode(text), chunkBytes)),
      { numRuns: 600 },
    );
  });
  it('random junk bytes (non-ASCII chunks are walked line by line)', () => {
    fc.assert(
      fc.property(junkBytes(['RULE : a\n', 'LAYER : L\n', 'Policy for port : \n', 'P1\n', 'Blocked : TRUE\n', ' Priority : 3\n']), CHUNK, (bytes, chunkBytes) => expectSameAsOracle(bytes, chunkBytes)),
      { numRuns: 400 },
    );
  });
  for (const name of ['vfpOutput-two-ports.txt', 'filtered-layer-group.txt', 'seed-lbnat.txt', 'seed-list-layer.txt', 'VfpCtrl.PortGuid.4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF.txt']) {
    it(`${name}: every chunk size from 1 to 80, LF and CRLF`, () => {
      for (const t of [fixture(name), toCrlf(fixture(name))]) {
        const bytes = enc.encode(t);
        for (let c = 1; c <= 80; c++) expectSameAsOracle(bytes, c);
        expectSameAsOracle(bytes);
      }
    });
  }
  it('a subarray at an odd offset of a larger buffer', () => {
    const text = enc.encode(toCrlf(fixture('vfpOutput-two-ports.txt')).repeat(40));
    const big = new Uint8Array(text.length + 7);
    big.set(text, 3);
    expectSameAsOracle(big.subarray(3, 3 + text.length));
  });
});

describe('LineLocator', () => {
  const text = 'a\nbb\n\nccc\r\nd'.repeat(5000);
  const bytes = enc.encode(text);
  it('countNewlines equals a plain count on any range and alignment', () => {
    fc.assert(
      fc.property(fc.nat(bytes.length), fc.nat(bytes.length), fc.nat(3), (a, b, shift) => {
        const buf = new Uint8Array(bytes.length + 3);
        buf.set(bytes, shift);
        const view = buf.subarray(shift, shift + bytes.length);
        const [from, to] = a <= b ? [a, b] : [b, a];
        let plain = 0;
        for (let i = from; i < to; i++) if (bytes[i] === 10) plain++;
        expect(countNewlines(view, from, to)).toBe(plain);
      }),
      { numRuns: 300 },
    );
  });
  it('lineAt / linesOfSorted / totalLines', () => {
    const loc = new LineLocator(bytes);
    const starts = [0];
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) starts.push(i + 1);
    for (const k of [0, 1, 2, 3, 4000, 12345, starts.length - 1]) {
      expect(loc.lineAt(starts[k])).toBe(k + 1);
      if (starts[k] > 0) expect(loc.lineAt(starts[k] - 1)).toBe(k);
    }
    expect([...loc.linesOfSorted([starts[5], starts[7000], starts[7001], starts[3]])]).toEqual([6, 7001, 7002, 4]);
    expect(loc.totalLines(0)).toBe(starts.length);
    expect(new LineLocator(enc.encode('x\n')).totalLines(0)).toBe(1);
    expect(new LineLocator(new Uint8Array(0)).totalLines(0)).toBe(0);
    expect(loc.lineAt(Number.NaN)).toBe(1);
    expect(loc.lineAt(1e12)).toBe(starts.length);
  });
  it('lineStart is the byte where each line starts, asked in any order, across 64 KiB checkpoints', () => {
    // 240 KB: four checkpoint blocks, with lines of every length from empty to CRLF-ended.
    const big = enc.encode('a\nbb\n\nccc\r\nd'.repeat(20_000) + '\n');
    const starts = [0];
    for (let i = 0; i < big.length; i++) if (big[i] === 10) starts.push(i + 1);
    // The final newline opens no line: its start would be the end of the bytes.
    const expected = (line: number) => (line >= 1 && line <= starts.length && starts[line - 1] < big.length ? starts[line - 1] : undefined);
    const loc = new LineLocator(big);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -2, max: starts.length + 2 }), { minLength: 1, maxLength: 40 }), (lines) => {
        for (const line of lines) expect(loc.lineStart(line)).toBe(expected(line));
      }),
      { numRuns: 200 },
    );
    // Ascending runs are what evidence asks for; the answer does not depend on what was asked before.
    for (let line = 1; line <= starts.length + 1; line += 997) expect(loc.lineStart(line)).toBe(expected(line));
    expect(loc.lineStart(1.5)).toBeUndefined();
    expect(new LineLocator(new Uint8Array(0)).lineStart(1)).toBeUndefined();
    expect(new LineLocator(enc.encode('x')).lineStart(1)).toBe(0);
  });
});
