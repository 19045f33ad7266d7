// Two threads share one dump's scan (issue 27): the parse worker scans from the start; the loader's main
// thread, once the bundle's other files are read, claims the part the worker has not reached, scans it
// from the first port boundary (`Policy for port :` line) at or after its claim, and hands the worker
// that part of the index; the worker stops at the same boundary and joins the two. A port boundary is
// where nothing of the scanner's state crosses (the port, its layers, a rule's name, the `Priority` or
// port-name walks all stop there), so the joined index is the one a single scan makes.
//
// The claim is one Int32 cell in shared memory, changed only by compare-and-swap, so the worker can
// never be past the claimed byte when the claim succeeds:
//   ≥ 0          the block (blockBytes) of the chunk the worker is about to scan
//   NOT_STARTED  the worker has not begun this dump (nothing is claimed then)
//   DONE         the worker scanned to the end
//   < 0          claimed: the main thread takes the dump from the first boundary at or after -cell blocks
// Pure JavaScript (Atomics is ECMAScript): the threads and the message carrying the tail are the
// caller's (services/bundle/split-scan.ts); any failure there hands the worker nothing, and it scans the
// rest itself.
import type { VfpIndexLayer, VfpIndexPort } from './index-types.ts';

export const NOT_STARTED = 0x7ffffffe;
export const DONE = 0x7fffffff;
/** Claims are made in blocks of this many bytes (one scanner chunk: the worker checks between chunks). */
export const SPLIT_BLOCK = 1 << 16;
/** The control cell the worker sets to 1 once it joined the main thread's part. */
export const JOINED = 3;

/**
 * Cells: 0 the claim (above), 1 a counter the main thread bumps when it has posted the tail, 2 the block
 * size, 3 set to 1 by the worker when it joined the main thread's part (JOINED).
 */
export function newSplitControl(blockBytes = SPLIT_BLOCK): Int32Array {
  const c = new Int32Array(new SharedArrayBuffer(4 * 4));
  c[0] = NOT_STARTED;
  c[2] = Math.max(1, Math.floor(blockBytes));
  return c;
}

/** What the worker's scan needs from whoever shares it (the worker's side of the split). */
export interface VfpSplit {
  ctl: Int32Array;
  /** Called once before the first chunk with the options the other side must scan with. */
  begin?(opts: TailScanOptions): void;
  /** Called when the worker reaches the first boundary at or after the claim: the other side's part, or undefined (scan on). */
  tail(from: number): ScanTail | undefined;
}

export interface TailScanOptions {
  defaultPortName?: string;
  defaultLayerName?: string;
  chunkBytes?: number;
}

export type PlainPort = Omit<VfpIndexPort, 'line' | 'lineStart'>;
export type PlainLayer = Omit<VfpIndexLayer, 'line'>;

/** The main thread's part of the index: from its first port boundary (`from`) to the end of the dump. */
export interface ScanTail {
  /** The boundary the part starts at; -1 when there is none after the claim (the worker scans to the end). */
  from: number;
  ports: PlainPort[];
  /** Each layer's `port` counts from the part's first port; each port's `firstLayer` from the part's first layer. */
  layers: PlainLayer[];
  groupByte: Float64Array;
  groupPort: Uint32Array;
  ruleByte: Float64Array;
  rulePort: Uint32Array;
  ruleName: Float64Array;
  sawCounters: boolean;
  sawGetRuleCounter: boolean;
  sawListRule: boolean;
}

/**
 * The worker, before the chunk starting at byte c0: records its progress and returns the claimed byte
 * (the scan stops at the first boundary at or after it), or -1 while nothing is claimed.
 */
export function splitProgress(ctl: Int32Array, c0: number): number {
  const block = ctl[2]!;
  const b = Math.min(NOT_STARTED - 1, Math.floor(c0 / block));
  for (;;) {
    const cur = Atomics.load(ctl, 0);
    if (cur < 0) return -cur * block;
    if (cur === DONE) return -1;
    if (Atomics.compareExchange(ctl, 0, cur, b) === cur) return -1;
  }
}

/** The worker at the end of the dump: the claimed byte when a claim came in, else -1 (and nothing can be claimed now). */
export function splitDone(ctl: Int32Array): number {
  for (;;) {
    const cur = Atomics.load(ctl, 0);
    if (cur < 0) return -cur * ctl[2]!;
    if (cur === DONE || Atomics.compareExchange(ctl, 0, cur, DONE) === cur) return -1;
  }
}

/**
 * The main thread claims the end of what the worker has not scanned yet, so both finish together (both
 * scan at the same rate; `otherWork` is what the main thread does besides, in bytes of scanning), when
 * that is at least minBytes: the claimed byte, or -1. Two blocks past the worker's chunk at least, so its
 * next check comes before the claimed byte.
 */
export function claimSplit(ctl: Int32Array, size: number, minBytes: number, otherWork = 0): number {
  const block = ctl[2]!;
  const blocks = Math.ceil(size / block);
  for (;;) {
    const cur = Atomics.load(ctl, 0);
    if (cur < 0 || cur >= NOT_STARTED) return -1;
    const m = blocks - Math.floor((blocks - cur - Math.max(0, otherWork) / block) / 2);
    if (m < cur + 2 || m >= blocks || (blocks - m) * block < minBytes) return -1;
    if (Atomics.compareExchange(ctl, 0, cur, -m) === cur) return m * block;
  }
}

/** Claims from exactly byte `at` (a multiple of the block size) when the worker has not passed it: for tests. */
export function claimAt(ctl: Int32Array, at: number): boolean {
  const m = Math.floor(at / ctl[2]!);
  const cur = Atomics.load(ctl, 0);
  const p = cur === NOT_STARTED ? -1 : cur;
  if (cur < 0 || cur === DONE || m < p + 2 || m < 1) return false;
  return Atomics.compareExchange(ctl, 0, cur, -m) === cur;
}
