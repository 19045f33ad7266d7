// The growable arrays and index classes the VFP scanner fills (scan.ts). Kept apart from the scanner's
// state machine: they store offsets and resolve line numbers lazily, and never read the bytes' meaning.
import type { LineLocator } from './line-locator.ts';
import type { VfpIndex, VfpIndexLayer, VfpIndexPort, VfpOutputGeneration } from './index-types.ts';
import type { VfpPortTableRow } from './types.ts';

export class GrowF64 {
  a: Float64Array;
  n = 0;
  constructor(cap: number) {
    this.a = new Float64Array(cap);
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

export class GrowU32 {
  a: Uint32Array;
  n = 0;
  constructor(cap: number) {
    this.a = new Uint32Array(cap);
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

export class IndexPort implements VfpIndexPort {
  name: string;
  byte: number;
  byteStart: number;
  byteEnd: number;
  layers = 0;
  groups = 0;
  rules = 0;
  blocked?: boolean;
  implicit: boolean;
  firstLayer: number;
  readonly #loc: LineLocator;
  constructor(loc: LineLocator, name: string, byte: number, byteStart: number, byteEnd: number, implicit: boolean, firstLayer: number) {
    this.#loc = loc;
    this.name = name;
    this.byte = byte;
    this.byteStart = byteStart;
    this.byteEnd = byteEnd;
    this.implicit = implicit;
    this.firstLayer = firstLayer;
  }
  get line(): number {
    return this.#loc.lineAt(this.byte);
  }
  get lineStart(): number {
    return this.#loc.lineAt(this.byteStart);
  }
  static revive(loc: LineLocator, o: VfpIndexPort): IndexPort {
    const p = new IndexPort(loc, o.name, o.byte, o.byteStart, o.byteEnd, o.implicit, o.firstLayer);
    p.layers = o.layers;
    p.groups = o.groups;
    p.rules = o.rules;
    if (o.blocked !== undefined) p.blocked = o.blocked;
    return p;
  }
}

export class IndexLayer implements VfpIndexLayer {
  port: number;
  name: string;
  priority?: number;
  byte: number;
  readonly #loc: LineLocator;
  constructor(loc: LineLocator, port: number, name: string, byte: number) {
    this.#loc = loc;
    this.port = port;
    this.name = name;
    this.byte = byte;
  }
  get line(): number {
    return this.#loc.lineAt(this.byte);
  }
  static revive(loc: LineLocator, o: VfpIndexLayer): IndexLayer {
    const l = new IndexLayer(loc, o.port, o.name, o.byte);
    if (o.priority !== undefined) l.priority = o.priority;
    return l;
  }
}

/** What the index takes from a finished scan (the scanner, or a revived index's plain data). */
export interface ScanState {
  pos0: number;
  n: number;
  ports: IndexPort[];
  layers: IndexLayer[];
  groupByte: { a: Float64Array; n: number };
  groupPort: { a: Uint32Array; n: number };
  ruleByte: { a: Float64Array; n: number };
  rulePort: { a: Uint32Array; n: number };
  ruleName: { a: Float64Array; n: number };
}

export class ScanIndex implements VfpIndex {
  file: string;
  bytes: number;
  ports: VfpIndexPort[];
  layers: VfpIndexLayer[];
  groupByte: Float64Array;
  groupPort: Uint32Array;
  ruleByte: Float64Array;
  rulePort: Uint32Array;
  ruleName: Float64Array;
  totals: { ports: number; layers: number; groups: number; rules: number };
  portTable: VfpPortTableRow[] = [];
  generation: VfpOutputGeneration = 'unknown';
  readonly #loc: LineLocator;
  readonly #bodyStart: number;
  #groupLine: Uint32Array | undefined;
  #ruleLine: Uint32Array | undefined;
  constructor(loc: LineLocator, file: string, s: ScanState) {
    this.#loc = loc;
    this.#bodyStart = s.pos0;
    this.file = file;
    this.bytes = s.n;
    this.ports = s.ports;
    this.layers = s.layers;
    this.groupByte = s.groupByte.a.subarray(0, s.groupByte.n);
    this.groupPort = s.groupPort.a.subarray(0, s.groupPort.n);
    this.ruleByte = s.ruleByte.a.subarray(0, s.ruleByte.n);
    this.rulePort = s.rulePort.a.subarray(0, s.rulePort.n);
    this.ruleName = s.ruleName.a.subarray(0, s.ruleName.n);
    this.totals = { ports: s.ports.length, layers: 0, groups: 0, rules: 0 };
    for (const p of s.ports) {
      this.totals.layers += p.layers;
      this.totals.groups += p.groups;
      this.totals.rules += p.rules;
    }
  }
  get lines(): number {
    return this.#loc.totalLines(this.#bodyStart);
  }
  get groupLine(): Uint32Array {
    return (this.#groupLine ??= this.#loc.linesOfSorted(this.groupByte));
  }
  get ruleLine(): Uint32Array {
    return (this.#ruleLine ??= this.#loc.linesOfSorted(this.ruleByte));
  }
  lineAt(byte: number): number {
    return this.#loc.lineAt(byte);
  }
  lineStart(line: number): number | undefined {
    return this.#loc.lineStart(line);
  }
  lineTable?: Float64Array;
  prepareLines(): void {
    this.lineTable = this.#loc.table;
  }
  adoptLines(table: Float64Array): boolean {
    if (!this.#loc.adopt(table)) return false;
    this.lineTable = this.#loc.table;
    return true;
  }
}

/** A copy of a typed array's elements in memory shared between threads (exactly its length, no slack). */
function sharedCopy<T extends Float64Array | Uint32Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const out = (a instanceof Float64Array ? new Float64Array(new SharedArrayBuffer(a.byteLength)) : new Uint32Array(new SharedArrayBuffer(a.byteLength))) as T;
  out.set(a);
  return out;
}

/**
 * Moves the index's per-group and per-rule arrays (≈ 20 bytes a rule) into SharedArrayBuffers, once, on
 * the thread that holds the node: every worker the index is posted to then reads the same memory
 * instead of a clone of it (issue #27 point 2). A structured clone of a view copies its whole buffer,
 * and the scanner's arrays sit in buffers grown by doubling, so each worker used to get up to twice
 * their size. The values are unchanged; the buffers left behind are collected.
 */
export function shareIndexBuffers(ix: VfpIndex): void {
  ix.groupByte = sharedCopy(ix.groupByte);
  ix.groupPort = sharedCopy(ix.groupPort);
  ix.ruleByte = sharedCopy(ix.ruleByte);
  ix.rulePort = sharedCopy(ix.rulePort);
  ix.ruleName = sharedCopy(ix.ruleName);
}

/** Whether every per-group and per-rule array of an index reads shared memory. */
export function indexBuffersShared(ix: VfpIndex): boolean {
  return [ix.groupByte, ix.groupPort, ix.ruleByte, ix.rulePort, ix.ruleName].every((a) => a.buffer instanceof SharedArrayBuffer);
}
