// The scan of a source read in small windows into one reused buffer (how a dump on disk is read:
// services/bundle/file-bytes.ts) against the scan of the same bytes held whole: the same index, lines,
// issues, ports and rules, wherever the window edges fall. Tiny windows (7, 64 bytes) put an edge
// inside every keyword, rule name and line sooner or later — where such a scan goes wrong.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanVfpOutput, materializeVfpPort } from '../../../parsers/vfp/scan.ts';
import { readPortRules, readRuleAt } from '../../../parsers/vfp/rule-at.ts';
import { LineLocator } from '../../../parsers/vfp/line-locator.ts';
import { lineFrom, MemoryBytes, type ByteSource } from '../../../parsers/vfp/byte-source.ts';
import { fixture, toCrlf } from './fixture.ts';
import { indexSummary, junkBytes, lineSoup } from './scan-inputs.ts';

const enc = new TextEncoder();

/** A source that copies each range into the caller's buffer, like a pread: nothing held whole. */
class CopyingBytes implements ByteSource {
  reads = 0;
  maxRead = 0;
  constructor(private readonly b: Uint8Array) {}
  get size(): number {
    return this.b.length;
  }
  read(offset: number, length: number, into?: Uint8Array): Uint8Array {
    const s = Math.max(0, Math.min(this.b.length, offset));
    const e = Math.max(s, Math.min(this.b.length, s + length));
    this.reads++;
    this.maxRead = Math.max(this.maxRead, e - s);
    const out = into && into.length >= e - s ? into.subarray(0, e - s) : new Uint8Array(e - s);
    out.set(this.b.subarray(s, e));
    // Bytes past what was asked are garbage in a reused buffer: make that visible.
    if (into && into.length > e - s) into.fill(0x55, e - s);
    return out;
  }
}

function expectSameAsWhole(bytes: Uint8Array, windowBytes: number, chunkBytes?: number): void {
  const whole = scanVfpOutput(bytes, 'f', { chunkBytes });
  const src = new CopyingBytes(bytes);
  const win = scanVfpOutput(src, 'f', { chunkBytes, windowBytes });
  expect(indexSummary(win.value, { ruleNames: true })).toEqual(indexSummary(whole.value, { ruleNames: true }));
  expect(win.issues).toEqual(whole.issues);
  // Ports, rules and lines read back through the source are the ones read from the whole bytes.
  for (let p = 0; p < whole.value.ports.length; p++) {
    expect(materializeVfpPort(src, win.value, p)).toEqual(materializeVfpPort(bytes, whole.value, p));
    expect(JSON.parse(JSON.stringify(readPortRules(src, win.value, p)))).toEqual(JSON.parse(JSON.stringify(readPortRules(bytes, whole.value, p))));
  }
  for (let r = 0; r < whole.value.ruleByte.length; r++) expect(JSON.stringify(readRuleAt(src, win.value, r))).toBe(JSON.stringify(readRuleAt(bytes, whole.value, r)));
  const lines = whole.value.lines;
  for (let l = 0; l <= lines + 1; l++) expect(win.value.lineStart(l)).toBe(whole.value.lineStart(l));
}

const TEXT = lineSoup([
  'LAYER : L1', '  GROUP : G1', '    RULE : R1', 'RULE :', 'RULE', 'GROUP G', 'RULE\t:\t', 'LAYER:x', ' RULE : \r', '   Friendly name : fr-1', 'Friendly name :', 'FRIENDLY NAME:x',
  'RULE : R_UDP_GROUP', 'GROUP : LAYER_GROUP', '  LAYER : POLICY_LAYER', 'UUUU', 'YYY', 'xRULE : a',
  'Policy for port : ', 'Policy for port : ABC', 'POLICY FOR PORT:', 'ABC-DEF-123', '  GUID-1  ', 'Matched', '====',
  'Blocked : TRUE', '  blocked: false', 'Blocked : maybe', 'Priority : 5', 'PRIORITY:7', 'Priority : x', 'Flags : 8195 terminating stateful ',
  'Matched packets : 3', 'Command list-rule succeeded!', 'Command get-rule-counter succeeded!', 'Command x failed', ' ITEM LIST', '===========',
  'Port name  Mac Address  PortId', '---------  -----------  ------', '5C3A1D2E-8F4B-4C6A-9E1D-2B3C4D5E6F70 00-15-5D-AA-87-B8 5',
  '', '   ', '\r', 'é RULE : x', '  RULE : é', '(redacted)', '...', ' '.repeat(300) + 'RULE : far', 'RULE : ' + 'n'.repeat(200),
], ['', '\n', '\n\n  \r\n']);
const WINDOW = fc.constantFrom(7, 64, 4096);
const CHUNK = fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined });

describe('scanVfpOutput over a source read in windows == over the whole bytes', () => {
  it('random line soup, windows of 7, 64 and 4096 bytes', () => {
    fc.assert(
      fc.property(TEXT, WINDOW, CHUNK, (text, windowBytes, chunkBytes) => expectSameAsWhole(enc.encode(text), windowBytes, chunkBytes)),
      { numRuns: 300 },
    );
  });
  it('random junk bytes (non-ASCII windows are walked line by line)', () => {
    fc.assert(
      fc.property(junkBytes(['RULE : a\n', 'LAYER : L\n', 'Policy for port : \n', 'P1\n', 'Blocked : TRUE\n', ' Priority : 3\n', 'Friendly name : x\n']), WINDOW, CHUNK, (bytes, windowBytes, chunkBytes) => expectSameAsWhole(bytes, windowBytes, chunkBytes)),
      { numRuns: 300 },
    );
  });
  for (const name of ['vfpOutput-two-ports.txt', 'seed-lbnat.txt', 'VfpCtrl.PortGuid.4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF.txt']) {
    it(`${name}, LF and CRLF, cut anywhere: windows of 7, 64 and 4096 bytes`, () => {
      for (const t of [fixture(name), toCrlf(fixture(name))]) {
        const bytes = enc.encode(t);
        for (const w of [7, 64, 4096]) expectSameAsWhole(bytes, w);
        // A dump the collector stopped writing: the cut-end notes read the tail through the source.
        for (const cut of [0.3, 0.77]) expectSameAsWhole(bytes.subarray(0, Math.floor(bytes.length * cut)), 64);
      }
    });
  }
  it('reads in windows: never the whole file at once', () => {
    const bytes = enc.encode(toCrlf(fixture('vfpOutput-two-ports.txt')).repeat(600));
    expect(bytes.length).toBeGreaterThan(2 << 20);
    const src = new CopyingBytes(bytes);
    scanVfpOutput(src, 'f', { windowBytes: 4096, chunkBytes: 1024 });
    expect(src.reads).toBeGreaterThan(bytes.length / 4096 / 2);
    // The largest single read is the 1 MiB head where the cut-end note looks for vfpctrl's trailer.
    expect(src.maxRead).toBeLessThanOrEqual(1 << 20);
  });
});

describe('LineLocator and lineFrom over a source read in windows', () => {
  it('lineAt, lineStart and lineFrom agree with the whole bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'bb', '', 'ccc\r', 'x'.repeat(5000), '\r'), { maxLength: 80 }), fc.boolean(), (ls, finalNl) => {
        const bytes = enc.encode(ls.join('\n') + (finalNl ? '\n' : ''));
        const whole = new LineLocator(bytes);
        const win = new LineLocator(new CopyingBytes(bytes));
        const starts = [0];
        for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) starts.push(i + 1);
        for (let k = 0; k < starts.length; k++) {
          expect(win.lineAt(starts[k]!)).toBe(whole.lineAt(starts[k]!));
          expect(win.lineStart(k + 1)).toBe(whole.lineStart(k + 1));
          const a = lineFrom(new CopyingBytes(bytes), starts[k]!, 2000);
          const b = lineFrom(new MemoryBytes(bytes), starts[k]!, 2000);
          expect(a).toEqual(b);
          let end = bytes.indexOf(10, starts[k]!);
          if (end < 0) end = bytes.length;
          const next = end + 1;
          if (end > starts[k]! && bytes[end - 1] === 13) end--;
          expect(b.text).toBe(new TextDecoder('latin1').decode(bytes.subarray(starts[k]!, Math.min(end, starts[k]! + 2000))));
          expect(b.next).toBe(next);
        }
        expect(win.totalLines(0)).toBe(whole.totalLines(0));
        expect([...win.linesOfSorted(starts)]).toEqual([...whole.linesOfSorted(starts)]);
      }),
      { numRuns: 60 },
    );
  });
});
