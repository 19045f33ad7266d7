// A dump's scan shared by two threads (parsers/vfp/scan-split.ts, scan-tail.ts): the worker scans up to
// the first port boundary at or after the claimed byte, the other side from there, and the joined index
// must be the one a single scan makes — wherever the claim falls (inside a rule, on a port header, in a
// dump of one port, in CRLF text, in non-ASCII runs), with the other side failing or disagreeing too.
// Both sides run on this thread here: the worker's `tail` callback runs the other side when asked.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanVfpOutput } from '../../../parsers/vfp/scan.ts';
import { TailScan } from '../../../parsers/vfp/scan-tail.ts';
import { claimAt, claimSplit, DONE, JOINED, newSplitControl, NOT_STARTED, splitDone, splitProgress, type ScanTail, type TailScanOptions } from '../../../parsers/vfp/scan-split.ts';
import { readRuleAt } from '../../../parsers/vfp/rule-at.ts';
import { fixture, toCrlf } from './fixture.ts';
import { indexSummary, junkBytes, lineSoup } from './scan-inputs.ts';

const enc = new TextEncoder();

interface SplitRun {
  index: ReturnType<typeof scanVfpOutput>;
  /** The tail handed to the worker (undefined: it was never asked for one). */
  tail?: ScanTail;
}

/**
 * The worker's scan with a claim at byte `at` (block of one byte), the other side scanning from `at`
 * in steps of `step` bytes when the worker asks. `mode` makes the other side fail or answer wrong.
 */
function splitScan(bytes: Uint8Array, at: number, opts: { chunkBytes?: number; step?: number; mode?: 'ok' | 'fail' | 'wrong' } = {}): SplitRun {
  const ctl = newSplitControl(1);
  expect(claimAt(ctl, at)).toBe(true);
  let tailOpts: TailScanOptions | undefined;
  const run: Partial<SplitRun> = {};
  run.index = scanVfpOutput(bytes, 'f', {
    chunkBytes: opts.chunkBytes,
    split: {
      ctl,
      begin: (o) => (tailOpts = o),
      tail: (from) => {
        if (opts.mode === 'fail') throw new Error('the other side failed');
        const t = new TailScan(bytes, at, { ...tailOpts, chunkBytes: opts.chunkBytes });
        while (!t.step(opts.step ?? 1 << 20));
        run.tail = t.result();
        // The worker and the other side agree on where the part starts.
        expect(run.tail.from).toBe(from);
        return opts.mode === 'wrong' ? { ...run.tail, from: from + 1 } : run.tail;
      },
    },
  });
  return run as SplitRun;
}

function expectSame(bytes: Uint8Array, at: number, opts: Parameters<typeof splitScan>[2] = {}): SplitRun {
  const whole = scanVfpOutput(bytes, 'f', { chunkBytes: opts.chunkBytes });
  const split = splitScan(bytes, at, opts);
  expect(indexSummary(split.index.value, { ruleNames: true })).toEqual(indexSummary(whole.value, { ruleNames: true }));
  expect(split.index.issues).toEqual(whole.issues);
  for (let r = 0; r < whole.value.ruleByte.length; r++) expect(JSON.stringify(readRuleAt(bytes, split.index.value, r))).toBe(JSON.stringify(readRuleAt(bytes, whole.value, r)));
  return split;
}

const TEXT = lineSoup([
  'LAYER : L1', '  GROUP : G1', '    RULE : R1', 'RULE :', ' RULE : \r', '   Friendly name : fr-1', 'RULE : R_UDP_GROUP',
  'Policy for port : ', 'Policy for port : ABC', 'POLICY FOR PORT:', '  policy for port : P2', 'ABC-DEF-123', 'Policy for port', 'xPolicy for port : no',
  'Blocked : TRUE', '  blocked: false', 'Priority : 5', 'PRIORITY:7', 'Matched packets : 3', 'Command list-rule succeeded!', 'Command get-rule-counter succeeded!',
  ' ITEM LIST', '===========', 'Port name  Mac Address  PortId', '', '   ', 'é RULE : x', 'Policy for port : é',
], ['', '\n', '\n\n  \r\n']);

describe('a scan split between two threads at a port boundary == one scan', () => {
  it('random line soup, the claim anywhere, any chunk size', () => {
    fc.assert(
      fc.property(TEXT, fc.double({ min: 0, max: 1, noNaN: true }), fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }), fc.integer({ min: 1, max: 300 }), (text, f, chunkBytes, step) => {
        const bytes = enc.encode(text);
        if (bytes.length < 2) return;
        expectSame(bytes, 1 + Math.floor(f * (bytes.length - 1)), { chunkBytes, step });
      }),
      { numRuns: 400 },
    );
  });
  it('random junk bytes (non-ASCII chunks are walked line by line)', () => {
    fc.assert(
      fc.property(junkBytes(['RULE : a\n', 'LAYER : L\n', 'Policy for port : \n', 'Policy for port : Q\n', 'P1\n', 'Blocked : TRUE\n', ' Priority : 3\n', 'Friendly name : x\n']), fc.double({ min: 0, max: 1, noNaN: true }), fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }), (bytes, f, chunkBytes) => {
        if (bytes.length < 2) return;
        expectSame(bytes, 1 + Math.floor(f * (bytes.length - 1)), { chunkBytes });
      }),
      { numRuns: 300 },
    );
  });
  it('the other side failing or naming another boundary: the worker scans on alone, same index', () => {
    const bytes = enc.encode(toCrlf(fixture('vfpOutput-two-ports.txt')));
    const second = new TextDecoder().decode(bytes).lastIndexOf('Policy for port');
    for (const mode of ['fail', 'wrong'] as const) expectSame(bytes, second - 10, { mode, chunkBytes: 97 });
    // Answered right, the same claim is joined.
    const ctl = newSplitControl(1);
    claimAt(ctl, second - 10);
    let o: TailScanOptions = {};
    scanVfpOutput(bytes, 'f', { split: { ctl, begin: (x) => (o = x), tail: () => { const t = new TailScan(bytes, second - 10, o); while (!t.step(1 << 20)); return t.result(); } } });
    expect(ctl[JOINED]).toBe(1);
  });

  for (const name of ['vfpOutput-two-ports.txt', 'seed-lbnat.txt', 'VfpCtrl.PortGuid.4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF.txt']) {
    it(`${name}, LF and CRLF: the claim on every line start, inside every rule, on every port header`, () => {
      for (const t of [fixture(name), toCrlf(fixture(name))]) {
        const bytes = enc.encode(t);
        const s = new TextDecoder().decode(bytes);
        const points = new Set<number>();
        for (let i = 1; i < bytes.length; i++) if (bytes[i - 1] === 10) points.add(i);
        for (const m of s.matchAll(/RULE\s*:/g)) points.add(m.index + 2);
        let joined = 0;
        for (const at of points) {
          const r = expectSame(bytes, at, { chunkBytes: 64 });
          if (r.tail && r.tail.from >= 0) joined++;
        }
        // A dump of one port (no `Policy for port` line after the first) has no boundary after any
        // claim: the worker scans it all.
        if (name === 'vfpOutput-two-ports.txt') expect(joined).toBeGreaterThan(0);
        else expect(joined).toBe(0);
      }
    });
  }

  it('the claim exactly on a port header: the other side indexes that port', () => {
    const t = toCrlf(fixture('vfpOutput-two-ports.txt'));
    const bytes = enc.encode(t);
    const at = t.lastIndexOf('Policy for port');
    const r = expectSame(bytes, at);
    expect(r.tail?.from).toBe(at);
    expect(r.tail?.ports.length).toBe(1);
    expect(r.index.value.ports.at(-1)!.byteStart).toBe(at);
  });
});

describe('the claim (shared control cell)', () => {
  it('is never behind the worker, and never made once it is done', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1 << 12 }), fc.array(fc.integer({ min: 0, max: 1 << 24 }), { maxLength: 20 }), fc.integer({ min: 0, max: 1 << 24 }), fc.integer({ min: 0, max: 1 << 23 }), (block, steps, size, other) => {
        const ctl = newSplitControl(block);
        expect(claimSplit(ctl, size, 0)).toBe(-1); // not started
        let pos = 0;
        for (const d of steps.sort((a, b) => a - b)) {
          pos = Math.max(pos, d);
          expect(splitProgress(ctl, pos)).toBe(-1);
        }
        const at = claimSplit(ctl, size, 0, other);
        if (at >= 0) {
          // At least two blocks past the chunk the worker is on, and inside the dump.
          expect(at).toBeGreaterThanOrEqual((Math.floor(pos / block) + 2) * block);
          expect(at).toBeLessThan(size);
          // Both threads' work balanced within two blocks: the worker's rest against the main thread's part and its other work.
          const worker = at - Math.floor(pos / block) * block;
          expect(Math.abs(worker - (Math.ceil(size / block) * block - at + other))).toBeLessThanOrEqual(2 * block + 1);
          expect(splitProgress(ctl, pos + block)).toBe(at);
          expect(splitDone(ctl)).toBe(at);
          expect(claimSplit(ctl, size, 0)).toBe(-1);
        } else {
          expect(splitDone(ctl)).toBe(-1);
          expect(ctl[0]).toBe(DONE);
          expect(claimSplit(ctl, size, 0)).toBe(-1);
        }
      }),
    );
    expect(newSplitControl()[0]).toBe(NOT_STARTED);
  });
});
