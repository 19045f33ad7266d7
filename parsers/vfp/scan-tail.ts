// The main thread's side of a scan shared by two threads (scan-split.ts): the same state machine
// (scan.ts), started at a claimed byte, indexing nothing before the first port boundary after it.
import { Scanner } from './scan.ts';
import { LineLocator } from './line-locator.ts';
import { asByteSource, ByteWindow, type ByteSource } from './byte-source.ts';
import { CHUNK, WINDOW } from './scan-bytes.ts';
import type { IndexLayer, IndexPort } from './scan-index.ts';
import type { ScanTail, TailScanOptions } from './scan-split.ts';

/**
 * The other side of a split scan (scan-split.ts): indexes `src` from the first port boundary at or after
 * byte `from` to its end, a step at a time (the main thread yields between steps).
 */
export class TailScan {
  readonly #s: Scanner;
  #c0: number;
  constructor(bytes: Uint8Array | ByteSource, from: number, opts: TailScanOptions & { windowBytes?: number } = {}) {
    const src = asByteSource(bytes);
    const wb = opts.windowBytes;
    const w = new ByteWindow(src, typeof wb === 'number' && wb >= 1 ? wb : WINDOW, typeof wb === 'number' && wb >= 1 ? Math.min(256, wb) : 256);
    const cb = opts.chunkBytes;
    const s = new Scanner(w, new LineLocator(src), opts.defaultPortName ?? '', typeof cb === 'number' && cb >= 1 && cb <= CHUNK ? Math.floor(cb) : CHUNK);
    if (typeof opts.defaultLayerName === 'string') s.defaultLayerName = opts.defaultLayerName;
    s.countsLines = false;
    this.#c0 = Math.max(s.pos0, from);
    s.seek = this.#c0;
    this.#s = s;
  }
  /** Scans about `bytes` more; true once the end is reached. */
  step(bytes: number): boolean {
    this.#c0 = this.#s.runTo(this.#c0, this.#c0 + Math.max(1, bytes));
    return this.#c0 >= this.#s.n;
  }
  /** The part of the index scanned (from: -1 when no port boundary came after the start). */
  result(): ScanTail {
    const s = this.#s;
    const plainPort = (p: IndexPort) => ({ name: p.name, byte: p.byte, byteStart: p.byteStart, byteEnd: p.byteEnd, layers: p.layers, groups: p.groups, rules: p.rules, implicit: p.implicit, firstLayer: p.firstLayer, ...(p.blocked === undefined ? {} : { blocked: p.blocked }) });
    const plainLayer = (l: IndexLayer) => ({ port: l.port, name: l.name, byte: l.byte, ...(l.priority === undefined ? {} : { priority: l.priority }) });
    return {
      from: s.seek >= 0 || !s.ports.length ? -1 : s.ports[0]!.byteStart,
      ports: s.ports.map(plainPort),
      layers: s.layers.map(plainLayer),
      groupByte: s.groupByte.a.slice(0, s.groupByte.n),
      groupPort: s.groupPort.a.slice(0, s.groupPort.n),
      ruleByte: s.ruleByte.a.slice(0, s.ruleByte.n),
      rulePort: s.rulePort.a.slice(0, s.rulePort.n),
      ruleName: s.ruleName.a.slice(0, s.ruleName.n),
      sawCounters: s.sawCounters,
      sawGetRuleCounter: s.sawGetRuleCounter,
      sawListRule: s.sawListRule,
    };
  }
}

