// Byte-level index of a (possibly huge) vfpOutput.txt. Visiting 27 M lines costs more than the budget
// of a whole bundle load, so the scanner does not walk lines: it jumps between anchors that every
// keyword line must contain and verifies the keyword around each hit (only blanks back to the line
// start, then the keyword, then blanks and ':'). Anchors, found with String.indexOf/RegExp (memchr-fast
// in V8) on 64 KiB chunks decoded once each:
//   'U'  RULE, GROUP           'Y'  LAYER (both keywords are matched case-sensitively)
//   /policy|blocked/i          port boundaries and Blocked (matched case-insensitively)
//   /matched|command/i         only until the vfpctrl generation is known (usually the first rule)
// Hits are merged in byte order, so the state machine sees keyword lines exactly in file order; the few
// lines whose meaning depends on the previous line (the port GUID after an empty `Policy for port :`,
// `Priority` under a LAYER header) are read by a short forward walk. Correctness never depends on an
// anchor being rare, only speed: a chunk that does not decode one char per byte (non-ASCII) is walked
// line by line instead. Line numbers are not counted during the scan: the index keeps byte offsets and
// resolves lines through a LineLocator, built on the first request.
// Block recognition mirrors policy-text.ts / text-lines.ts exactly, so counts agree (tests check this).
import { IssueSink } from '../types.ts';
import type { ParseResult } from '../types.ts';
import { BLOCK, blockOf, countNewlines, LineLocator, wordView, type WordView } from './line-locator.ts';
import { parseVfpOutputPortTable } from './port-table.ts';
import { parseVfpRuleText } from './policy-text.ts';
import { nameKeyOfLines } from './rule-name.ts';
import { noteCutEnd, noteEndMarker, noteMissingPorts } from './cut-end.ts';
import { GrowF64, GrowU32, IndexPort, IndexLayer, ScanIndex, type ScanState } from './scan-index.ts';
import { asByteSource, ByteWindow, isByteSource, MemoryBytes, type ByteSource } from './byte-source.ts';
import { SP, K_LAYER, K_GROUP, K_RULE, K_POLICY, K_BLOCKED, K_PRIORITY, K_COMMAND, K_MATCHED, K_SUCCEEDED, K_ITEM_LIST, CHUNK, OVERLAP, WINDOW, at, atFold, colonAfter, trimEnd, skipBlanks, nameDecoder, chunkDecoder, text, boolAt, TAB, CR, LF, COLON } from './scan-bytes.ts';
import type { VfpIndex, VfpScanOptions } from './index-types.ts';
import type { VfpPortPolicy } from './types.ts';

class Scanner {
  /** The bytes, read through a moving window (a source held in memory is its own window). */
  readonly w: ByteWindow;
  readonly n: number;
  readonly pos0: number;
  readonly loc: LineLocator;
  readonly defaultPortName: string;
  defaultLayerName = '';
  ports: IndexPort[] = [];
  layers: IndexLayer[] = [];
  groupByte = new GrowF64(1024);
  groupPort = new GrowU32(1024);
  ruleByte = new GrowF64(4096);
  rulePort = new GrowU32(4096);
  ruleName = new GrowF64(4096);
  port: IndexPort | undefined;
  firstContentByte = -1;
  /** Start of the last line classified (or consumed as a port name): hits on it or before are stale. */
  lastLs = -1;
  /** First line start at or after the end of the last walked chunk. */
  walkEnd = -1;
  /** Where the scan is, for an internal-error issue. */
  cursor = 0;
  genOpen = true;
  sawCounters = false;
  sawGetRuleCounter = false;
  sawListRule = false;
  readonly reEvent = /policy|blocked/gi;
  readonly reGen = /matched|command/gi;

  readonly chunkBytes: number;
  /** Newlines per 64 KiB block of the file, counted as each chunk goes by (the line locator's table). */
  readonly blockLines: Float64Array;
  #wordsOf: Uint8Array | undefined;
  #words: WordView | undefined;
  /** Whether the scan counts the line table (VfpScanOptions.countLines). */
  countsLines = true;

  constructor(w: ByteWindow, loc: LineLocator, defaultPortName: string, chunkBytes: number) {
    this.w = w;
    this.chunkBytes = chunkBytes;
    this.n = w.size;
    this.pos0 = this.n >= 3 && w.byteAt(0) === 0xef && w.byteAt(1) === 0xbb && w.byteAt(2) === 0xbf ? 3 : 0;
    this.loc = loc;
    this.defaultPortName = defaultPortName;
    this.blockLines = new Float64Array(blockOf(this.n) + 1);
  }

  /**
   * Counts the newlines of [c0, c1) (in the window) into their 64 KiB blocks: the scan reads every byte
   * anyway, so the line locator's table costs no second pass over a file read from disk.
   */
  countLines(c0: number, c1: number): void {
    const w = this.w;
    if (w.buf !== this.#wordsOf) {
      this.#wordsOf = w.buf;
      this.#words = wordView(w.buf);
    }
    for (let from = c0; from < c1; ) {
      const k = blockOf(from);
      const to = Math.min(c1, (k + 1) * BLOCK);
      this.blockLines[k]! += countNewlines(w.buf, from - w.base, to - w.base, this.#words);
      from = to;
    }
  }

  /** The line locator's checkpoint table from the counts (newlines before each block, then the total). */
  lineTable(): Float64Array {
    const b = this.blockLines;
    const t = new Float64Array(b.length + 1);
    for (let k = 0; k < b.length; k++) t[k + 1] = t[k]! + b[k]!;
    return t;
  }

  run(): void {
    const step = this.chunkBytes;
    for (let c0 = this.pos0; c0 < this.n; c0 += step) {
      this.cursor = c0;
      this.chunk(c0, Math.min(this.n, c0 + step));
    }
  }

  /**
   * Makes the line starting at absolute `ls` readable in the window, with `extra` more lines after it;
   * returns the absolute end (LF or end of file) of the last of them.
   */
  lines(ls: number, extra: number): number {
    const w = this.w;
    let e = w.lineEnd(ls);
    for (let k = 0; k < extra && e < this.n; k++) e = w.lineEnd(e + 1);
    w.ensure(ls, Math.min(this.n, e + 1));
    return e;
  }

  /** One chunk: merge the anchor hits of [c0, c1) in byte order. */
  chunk(c0: number, c1: number): void {
    const w = this.w;
    const e = Math.min(this.n, c1 + OVERLAP);
    // A keyword is verified on up to 3 bytes before its anchor: keep them in the window too.
    const from = Math.max(0, c0 - 8);
    w.ensure(from, e);
    if (this.countsLines) this.countLines(c0, c1);
    const s = chunkDecoder.decode(w.buf.subarray(c0 - w.base, e - w.base));
    if (s.length !== e - c0) {
      // Some byte did not become exactly one char, so string indexes are not byte offsets here.
      this.walkLines(c0, c1);
      return;
    }
    const lim = c1 - c0;
    let u = s.indexOf('U');
    if (u >= lim) u = -1;
    let y = s.indexOf('Y');
    if (y >= lim) y = -1;
    const re = this.reEvent;
    re.lastIndex = 0;
    let m = re.exec(s);
    let r = m && m.index < lim ? m.index : -1;
    const rg = this.reGen;
    let g = -1;
    if (this.genOpen) {
      rg.lastIndex = 0;
      m = rg.exec(s);
      g = m && m.index < lim ? m.index : -1;
    }
    for (;;) {
      let p = u, which = 1;
      if (y >= 0 && (p < 0 || y < p)) {
        p = y;
        which = 2;
      }
      if (r >= 0 && (p < 0 || r < p)) {
        p = r;
        which = 3;
      }
      if (g >= 0 && (p < 0 || g < p)) {
        p = g;
        which = 4;
      }
      if (p < 0) return;
      // classify() may have moved the window past this chunk (a long line): bring it back.
      w.ensure(from, e);
      const b = w.buf;
      const k = c0 + p - w.base;
      let kw = -1;
      if (which === 1) {
        if (k >= 1 && b[k - 1] === 82 && b[k + 1] === 76 && b[k + 2] === 69) kw = k - 1; // R-U-LE
        else if (k >= 3 && b[k - 3] === 71 && b[k - 2] === 82 && b[k - 1] === 79 && b[k + 1] === 80) kw = k - 3; // GRO-U-P
        u = s.indexOf('U', p + 1);
        if (u >= lim) u = -1;
      } else if (which === 2) {
        if (k >= 2 && b[k - 2] === 76 && b[k - 1] === 65 && b[k + 1] === 69 && b[k + 2] === 82) kw = k - 2; // LA-Y-ER
        y = s.indexOf('Y', p + 1);
        if (y >= lim) y = -1;
      } else if (which === 3) {
        kw = k;
        re.lastIndex = p + 1;
        m = re.exec(s);
        r = m && m.index < lim ? m.index : -1;
      } else {
        kw = k;
        if (this.genOpen) {
          rg.lastIndex = p + 1;
          m = rg.exec(s);
          g = m && m.index < lim ? m.index : -1;
        } else g = -1;
      }
      if (kw < 0) continue;
      const ls = this.lineStartOf(w.base + kw);
      if (ls < 0 || ls <= this.lastLs) continue;
      this.lastLs = ls;
      // The line's end, from the chunk's text when it lies there (a builtin memchr, no call into the
      // window); -1 lets classify find it.
      const nl = s.indexOf('\n', p);
      this.classify(ls, nl >= 0 ? c0 + nl : -1);
    }
  }

  /**
   * Fallback for a chunk whose string indexes are not byte offsets: classify every line that starts in
   * [c0, c1), plus the line running into c0 (its anchor may lie here, while fast chunks attribute a
   * line to the chunk of its anchor). lastLs keeps every line classified once.
   */
  walkLines(c0: number, c1: number): void {
    const w = this.w;
    let ls: number;
    if (this.walkEnd > c0) ls = this.walkEnd;
    else {
      const lo = Math.max(this.pos0, this.lastLs);
      let j = c0 - 1;
      while (j >= lo && w.byteAt(j) !== LF) j--;
      if (j >= lo) ls = j + 1;
      else if (this.lastLs < this.pos0) ls = this.pos0;
      else {
        // The line running into c0 is the last classified one.
        const e = w.lineEnd(c0);
        ls = e >= this.n ? this.n : e + 1;
      }
    }
    while (ls < c1) {
      if (ls > this.lastLs) {
        this.lastLs = ls;
        this.classify(ls);
      }
      const e = w.lineEnd(ls);
      ls = e >= this.n ? this.n : e + 1;
    }
    this.walkEnd = ls;
  }

  /** Start of the line whose first non-blank byte is (absolute) k, or -1 when k is not first on its line. */
  lineStartOf(k: number): number {
    const w = this.w;
    let j = k - 1;
    let c = w.byteAt(j);
    while (j >= this.pos0 && (c === SP || c === TAB)) c = w.byteAt(--j);
    if (j < this.pos0) return k >= this.pos0 ? this.pos0 : -1;
    return c === LF ? j + 1 : -1;
  }

  openPort(name: string, byte: number, byteStart: number, implicit: boolean): IndexPort {
    if (this.port) this.port.byteEnd = byteStart;
    const p = new IndexPort(this.loc, name, byte, byteStart, this.n, implicit, this.layers.length);
    this.port = p;
    this.ports.push(p);
    return p;
  }

  ensurePort(ls: number): IndexPort {
    return this.port ?? this.openPort(this.defaultPortName, ls, 0, true);
  }

  /** A group or rule before any LAYER line, when the echoed command names the layer: that layer. */
  namedLayer(p: IndexPort, ls: number): void {
    if (p.layers > 0 || this.defaultLayerName === '') return;
    p.layers++;
    this.layers.push(new IndexLayer(this.loc, this.ports.length - 1, this.defaultLayerName, ls));
  }

  /**
   * Whether the line at first non-blank i (window-relative, its line ending at `end`) is a
   * LAYER/GROUP/RULE, boundary or Blocked line.
   */
  isEventAt(b: Uint8Array, i: number, end: number): boolean {
    const c = b[i];
    if (c === 76) return at(b, i, end, K_LAYER) && colonAfter(b, i + 5, end) >= 0;
    if (c === 71) return at(b, i, end, K_GROUP) && colonAfter(b, i + 5, end) >= 0;
    if (c === 82) return at(b, i, end, K_RULE) && colonAfter(b, i + 4, end) >= 0;
    if (c === 80 || c === 112) return atFold(b, i, end, K_POLICY) && colonAfter(b, i + K_POLICY.length, end) >= 0;
    if (c === 66 || c === 98) return atFold(b, i, end, K_BLOCKED) && colonAfter(b, i + K_BLOCKED.length, end) >= 0;
    return false;
  }

  /**
   * The state machine, for the line at absolute `ls`. Keywords never contain '\n', so every compare is
   * bounded by the line's end; a rule's name also reads the line after it.
   */
  classify(ls: number, lineEnd = -1): void {
    const w = this.w;
    let le = lineEnd;
    if (le < 0) le = this.lines(ls, 0);
    else w.ensure(ls, le + 1);
    let b = w.buf;
    const o = w.base;
    const end = le - o;
    const i = skipBlanks(b, ls - o, end);
    if (i >= end) return;
    const c = b[i];
    let after: number;
    if (c === 82 && at(b, i, end, K_RULE) && colonAfter(b, i + 4, end) >= 0) {
      const p = this.ensurePort(ls);
      this.namedLayer(p, ls);
      if (this.firstContentByte < 0) this.firstContentByte = ls;
      p.rules++;
      this.ruleByte.push(ls);
      this.rulePort.push(this.ports.length - 1);
      // The name may be on the next line (Friendly name): that line is found and read only when it
      // starts with an F (most rules of a node print none), and the RULE line is not walked again.
      let f = le + 1;
      let c2 = w.byteAt(f);
      while (c2 === SP || c2 === TAB) c2 = w.byteAt(++f);
      const e2 = c2 === 70 || c2 === 102 ? w.lineEnd(f) : Math.min(le + 1, this.n);
      w.ensure(ls, Math.min(this.n, e2 + 1));
      b = w.buf;
      this.ruleName.push(nameKeyOfLines(b, ls - w.base, le - w.base, Math.min(this.n, e2 + 1) - w.base));
    } else if (c === 71 && at(b, i, end, K_GROUP) && colonAfter(b, i + 5, end) >= 0) {
      const p = this.ensurePort(ls);
      this.namedLayer(p, ls);
      if (this.firstContentByte < 0) this.firstContentByte = ls;
      p.groups++;
      this.groupByte.push(ls);
      this.groupPort.push(this.ports.length - 1);
    } else if (c === 76 && at(b, i, end, K_LAYER) && (after = colonAfter(b, i + 5, end)) >= 0) {
      const p = this.ensurePort(ls);
      if (this.firstContentByte < 0) this.firstContentByte = ls;
      p.layers++;
      const layer = new IndexLayer(this.loc, this.ports.length - 1, text(b, skipBlanks(b, after, end), trimEnd(b, after, end)), ls);
      this.layers.push(layer);
      this.readLayerPriority(layer, le + 1);
    } else if ((c === 80 || c === 112) && atFold(b, i, end, K_POLICY) && (after = colonAfter(b, i + K_POLICY.length, end)) >= 0) {
      if (this.firstContentByte < 0) this.firstContentByte = ls;
      const rs = skipBlanks(b, after, end);
      const re = trimEnd(b, rs, end);
      const p = this.openPort(text(b, rs, re), ls, ls, false);
      if (re <= rs) this.readPortName(p, le + 1);
    } else if ((c === 66 || c === 98) && atFold(b, i, end, K_BLOCKED) && (after = colonAfter(b, i + K_BLOCKED.length, end)) >= 0) {
      const p = this.ensurePort(ls);
      const v = skipBlanks(b, after, end);
      if (v < end) {
        const x = boolAt(b[v]!);
        if (x !== undefined) p.blocked = x;
      }
    } else if (this.genOpen) this.generationLine(b, i, end);
  }

  /** `Matched …` counters or a `Command <verb> succeeded` trailer decide the vfpctrl generation. */
  generationLine(b: Uint8Array, i: number, end: number): void {
    const c = b[i];
    if ((c === 77 || c === 109) && atFold(b, i, end, K_MATCHED)) {
      this.sawCounters = true;
      this.genOpen = false;
      return;
    }
    if ((c === 67 || c === 99) && atFold(b, i, end, K_COMMAND)) {
      const verb = trailerVerb(b, i, end);
      if (verb === 'get-rule-counter') {
        this.sawGetRuleCounter = true;
        this.genOpen = false;
      } else if (verb === 'list-rule') this.sawListRule = true;
    }
  }

  /**
   * A LAYER header's `Priority :` (mirrors the line loop: the header ends at the next block,
   * boundary, Blocked, trailer or ITEM LIST). The walk stops at the first keyword line, so walks
   * never overlap and together read each byte at most once.
   */
  readLayerPriority(layer: IndexLayer, pos: number): void {
    const w = this.w, n = this.n;
    while (pos < n) {
      const ls = pos;
      const le = this.lines(ls, 0);
      pos = le + 1;
      const b = w.buf, o = w.base, end = le - o;
      const i = skipBlanks(b, ls - o, end);
      if (isBlank(b, i, end)) continue;
      if (this.isEventAt(b, i, end)) return;
      const c = b[i];
      if ((c === 80 || c === 112) && atFold(b, i, end, K_PRIORITY)) {
        const a = colonAfter(b, i + K_PRIORITY.length, end);
        if (a < 0) continue;
        let k = skipBlanks(b, a, end);
        let v = 0, digits = 0;
        while (k < end && b[k]! >= 48 && b[k]! <= 57 && digits < 15) {
          v = v * 10 + (b[k++]! - 48);
          digits++;
        }
        if (digits > 0) layer.priority = v;
        return;
      }
      if ((c === 67 || c === 99) && atFold(b, i, end, K_COMMAND) && trailerVerb(b, i, end) !== undefined) return;
      if ((c === 73 || c === 105) && atFold(b, i, end, K_ITEM_LIST) && trimEnd(b, i, end) === i + K_ITEM_LIST.length) return;
    }
  }

  /** `Policy for port : ` with the GUID on the next non-blank line (the script echoes two arguments). */
  readPortName(port: IndexPort, pos: number): void {
    const w = this.w, n = this.n;
    while (pos < n) {
      const ls = pos;
      const le = this.lines(ls, 0);
      pos = le + 1;
      const b = w.buf, o = w.base, end = le - o;
      const i = skipBlanks(b, ls - o, end);
      if (isBlank(b, i, end)) continue;
      if (this.isEventAt(b, i, end)) return;
      // Mirrors isPortNameLine: no blanks, no colon, not a ==== rule.
      const e = trimEnd(b, i, end);
      if (b[i] === 61) return;
      for (let k = i; k < e; k++) {
        const x = b[k];
        if (x === SP || x === TAB || x === COLON) return;
      }
      port.name = text(b, i, e);
      // The name line is consumed: no anchor hit on it may be read as anything else.
      this.lastLs = ls;
      return;
    }
  }
}

/** Verb of `Command <verb> succeeded` starting at i, or undefined. */
function trailerVerb(b: Uint8Array, i: number, end: number): string | undefined {
  let k = skipBlanks(b, i + K_COMMAND.length, end);
  const vs = k;
  while (k < end && b[k] !== SP && b[k] !== TAB && b[k] !== CR) k++;
  if (k <= vs || k - vs >= 64) return undefined;
  return atFold(b, skipBlanks(b, k, end), end, K_SUCCEEDED) ? text(b, vs, k).toLowerCase() : undefined;
}

/** Blank line: nothing but blanks and CRs before the newline. */
function isBlank(b: Uint8Array, i: number, end: number): boolean {
  return i >= end || trimEnd(b, i, end) === i;
}

/**
 * Rebuilds an index that crossed a thread boundary: structured cloning keeps the data but drops the
 * getters and methods that resolve line numbers, so they are re-attached over the same bytes.
 */
export function reviveVfpIndex(plain: VfpIndex, bytes: Uint8Array | ByteSource): VfpIndex {
  const src = asByteSource(bytes);
  const loc = new LineLocator(src, plain.lineTable);
  const head = src.read(0, 3);
  const pos0 = head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  const shell: ScanState = {
    pos0,
    n: src.size,
    ports: plain.ports.map((p) => IndexPort.revive(loc, p)),
    layers: plain.layers.map((l) => IndexLayer.revive(loc, l)),
    groupByte: { a: plain.groupByte, n: plain.groupByte.length },
    groupPort: { a: plain.groupPort, n: plain.groupPort.length },
    ruleByte: { a: plain.ruleByte, n: plain.ruleByte.length },
    rulePort: { a: plain.rulePort, n: plain.rulePort.length },
    ruleName: { a: plain.ruleName, n: plain.ruleName.length },
  };
  const index = new ScanIndex(loc, plain.file, shell);
  index.portTable = plain.portTable;
  index.generation = plain.generation;
  if (plain.lineTable && loc.built) index.lineTable = plain.lineTable;
  return index;
}

/**
 * Indexes a vfpOutput.txt: bytes in memory, or a source read in fixed-size windows into one reused
 * buffer (a file on disk), so no whole-file buffer or string is ever made.
 */
export function scanVfpOutput(bytes: Uint8Array | ByteSource, file: string, opts: VfpScanOptions = {}): ParseResult<VfpIndex> {
  const sink = new IssueSink(file);
  const src = bytes instanceof Uint8Array || isByteSource(bytes) ? asByteSource(bytes) : new MemoryBytes(new Uint8Array(0));
  const n = src.size;
  const wb = opts?.windowBytes;
  const w = new ByteWindow(src, typeof wb === 'number' && wb >= 1 ? wb : WINDOW, typeof wb === 'number' && wb >= 1 ? Math.min(256, wb) : 256);
  const loc = new LineLocator(src);
  const cb = opts?.chunkBytes;
  const chunkBytes = typeof cb === 'number' && cb >= 1 && cb <= CHUNK ? Math.floor(cb) : CHUNK;
  let s: Scanner | undefined;
  try {
    s = new Scanner(w, loc, opts?.defaultPortName ?? '', chunkBytes);
    if (typeof opts?.defaultLayerName === 'string') s.defaultLayerName = opts.defaultLayerName;
    s.countsLines = opts?.countLines !== false;
    s.run();
    // Every byte after the BOM went through countLines (the BOM holds no newline).
    if (s.countsLines) loc.adopt(s.lineTable());
  } catch (e) {
    sink.error(safeLine(loc, s?.cursor ?? 0), `internal error while scanning VFP output: ${e instanceof Error ? e.message : String(e)}`);
  }
  s ??= new Scanner(new ByteWindow(new MemoryBytes(new Uint8Array(0))), loc, '', chunkBytes);
  const index = new ScanIndex(loc, file, s);

  try {
    // The PS port table sits before the first port; it is small, so the string parser reads it.
    const limit = Math.min(s.firstContentByte < 0 ? n : s.firstContentByte, 4 * 1024 * 1024);
    if (limit > 0) {
      const t = parseVfpOutputPortTable(nameDecoder.decode(src.read(0, limit)), file);
      index.portTable = t.value;
      sink.issues.push(...t.issues);
    }
  } catch (e) {
    sink.error(0, `internal error while reading the port table: ${e instanceof Error ? e.message : String(e)}`);
  }

  try {
    noteEndMarker(src, index, sink);
    noteMissingPorts(index, sink, noteCutEnd(src, index, sink));
  } catch (e) {
    sink.error(0, `internal error while reading the end of the file: ${e instanceof Error ? e.message : String(e)}`);
  }
  index.generation = s.sawGetRuleCounter || s.sawCounters ? 'get-rule-counter' : s.sawListRule ? 'list-rule' : 'unknown';
  if (n === 0) sink.info(0, 'empty file');
  else if (s.ports.length === 0) sink.info(0, 'no VFP port policy (LAYER/GROUP/RULE or Policy for port) found');
  return { value: index, issues: sink.issues };
}

function safeLine(loc: LineLocator, byte: number): number {
  try {
    return loc.lineAt(byte);
  } catch {
    return 0;
  }
}

/** Decodes one indexed port's bytes and runs the detailed parser; line numbers are true file lines. */
export function materializeVfpPort(bytes: Uint8Array | ByteSource, index: VfpIndex, portIndex: number): ParseResult<VfpPortPolicy> {
  const file = index?.file ?? '';
  const sink = new IssueSink(file);
  const ip = index?.ports?.[portIndex];
  const empty = (name: string, line: number): VfpPortPolicy => ({
    portName: name,
    layers: [],
    portState: {},
    natRanges: [],
    sections: [],
    flowStats: {},
    otherSections: [],
    src: { file, line },
  });
  if (!ip) {
    sink.error(0, `no port #${portIndex} in the VFP index`);
    return { value: empty('', 0), issues: sink.issues };
  }
  try {
    const text = nameDecoder.decode(asByteSource(bytes).read(ip.byteStart, ip.byteEnd - ip.byteStart));
    const r = parseVfpRuleText(text, file, { lineOffset: ip.lineStart - 1, defaultPortName: ip.name });
    sink.issues.push(...r.issues);
    if (r.value.length !== 1) sink.warn(ip.line, `port range decoded into ${r.value.length} ports (expected 1)`);
    const value = r.value[0] ?? empty(ip.name, ip.line);
    if (ip.implicit) value.implicit = true;
    return { value, issues: sink.issues };
  } catch (e) {
    sink.error(ip.line, `internal error while materializing port: ${e instanceof Error ? e.message : String(e)}`);
    return { value: empty(ip.name, ip.line), issues: sink.issues };
  }
}
