// Test oracle: the first, line-by-line version of scanVfpOutput (every line visited with
// indexOf('\n'), line numbers counted as it goes). It is slow but simple; the anchor-jumping scanner must
// produce the same index on any input.
import { IssueSink } from '../../../parsers/types.ts';
import type { ParseResult } from '../../../parsers/types.ts';
import type { VfpPortTableRow } from '../../../parsers/vfp/types.ts';
import { parseVfpOutputPortTable } from '../../../parsers/vfp/port-table.ts';

interface VfpIndexPort {
  name: string;
  /** Line of `Policy for port :`, or of the first block when the file names no port. */
  line: number;
  /** First line / byte of the port's range (the boundary line; 1 / 0 for an implicit port). */
  lineStart: number;
  byteStart: number;
  /** Exclusive end byte of the range (next boundary or end of file). */
  byteEnd: number;
  layers: number;
  groups: number;
  rules: number;
  blocked?: boolean;
  /** True when no `Policy for port :` line introduced this port. */
  implicit: boolean;
  /** Index of the port's first layer in VfpIndex.layers. */
  firstLayer: number;
}

interface VfpIndexLayer {
  port: number;
  name: string;
  priority?: number;
  line: number;
  byte: number;
}

type VfpOutputGeneration = 'list-rule' | 'get-rule-counter' | 'unknown';

export interface OracleIndex {
  file: string;
  bytes: number;
  lines: number;
  ports: VfpIndexPort[];
  layers: VfpIndexLayer[];
  /** Per GROUP block: byte offset, line, port index. */
  groupByte: Float64Array;
  groupLine: Uint32Array;
  groupPort: Uint32Array;
  /** Per RULE block: byte offset, line, port index, layer index (-1 when outside a LAYER). */
  ruleByte: Float64Array;
  ruleLine: Uint32Array;
  rulePort: Uint32Array;
  ruleLayer: Int32Array;
  totals: { ports: number; layers: number; groups: number; rules: number };
  portTable: VfpPortTableRow[];
  generation: VfpOutputGeneration;
  /** `Command <verb> succeeded!` trailers seen, by verb. */
  commands: Record<string, number>;
}

interface VfpScanOptions {
  defaultPortName?: string;
}

class GrowF64 {
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

class GrowU32 {
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

class GrowI32 {
  a: Int32Array;
  n = 0;
  constructor(cap: number) {
    this.a = new Int32Array(cap);
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

const SP = 32, TAB = 9, CR = 13, LF = 10, COLON = 58;
const K_LAYER = bytesOf('LAYER');
const K_GROUP = bytesOf('GROUP');
const K_RULE = bytesOf('RULE');
const K_POLICY = bytesOf('policy for port');
const K_BLOCKED = bytesOf('blocked');
const K_PRIORITY = bytesOf('priority');
const K_COMMAND = bytesOf('command');
const K_MATCHED = bytesOf('matched');
const K_SUCCEEDED = bytesOf('succeeded');
const K_ITEM_LIST = bytesOf('item list');

function bytesOf(s: string): Uint8Array {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}

/** Exact (case-sensitive) match of kw at i. */
function at(bytes: Uint8Array, i: number, end: number, kw: Uint8Array): boolean {
  if (i + kw.length > end) return false;
  for (let k = 0; k < kw.length; k++) if (bytes[i + k] !== kw[k]) return false;
  return true;
}

/** ASCII case-insensitive match against a lower-case keyword (letters fold, other bytes exact). */
function atFold(bytes: Uint8Array, i: number, end: number, kw: Uint8Array): boolean {
  if (i + kw.length > end) return false;
  for (let k = 0; k < kw.length; k++) {
    const c = bytes[i + k];
    const w = kw[k];
    if (c === w) continue;
    if (w >= 97 && w <= 122 && c === w - 32) continue;
    return false;
  }
  return true;
}

/** After a keyword: optional blanks then ':'; returns the index after ':' or -1. */
function colonAfter(bytes: Uint8Array, i: number, end: number): number {
  while (i < end && (bytes[i] === SP || bytes[i] === TAB)) i++;
  return i < end && bytes[i] === COLON ? i + 1 : -1;
}

function trimEnd(bytes: Uint8Array, i: number, end: number): number {
  while (end > i && (bytes[end - 1] === SP || bytes[end - 1] === TAB || bytes[end - 1] === CR)) end--;
  return end;
}

function skipBlanks(bytes: Uint8Array, i: number, end: number): number {
  while (i < end && (bytes[i] === SP || bytes[i] === TAB)) i++;
  return i;
}

const nameDecoder = new TextDecoder('utf-8');

function text(bytes: Uint8Array, i: number, end: number): string {
  return i >= end ? '' : nameDecoder.decode(bytes.subarray(i, end));
}

function boolAt(c: number): boolean | undefined {
  // Mirrors text-lines.ts boolValue: the first character decides.
  if (c === 116 || c === 84 || c === 49 || c === 121 || c === 89) return true;
  if (c === 102 || c === 70 || c === 48 || c === 110 || c === 78) return false;
  return undefined;
}

export function lineScanOracle(bytes: Uint8Array, file: string, opts: VfpScanOptions = {}): ParseResult<OracleIndex> {
  const sink = new IssueSink(file);
  const ports: VfpIndexPort[] = [];
  const layers: VfpIndexLayer[] = [];
  const groupByte = new GrowF64(1024), groupLine = new GrowU32(1024), groupPort = new GrowU32(1024);
  const ruleByte = new GrowF64(4096), ruleLine = new GrowU32(4096), rulePort = new GrowU32(4096), ruleLayer = new GrowI32(4096);
  const commands: Record<string, number> = {};
  let sawCounters = false;
  let lineNo = 0;
  let firstContentByte = -1;
  const n = bytes instanceof Uint8Array ? bytes.length : 0;

  try {
    let pos = n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    let port: VfpIndexPort | undefined;
    let layerIdx = -1;
    /** Layer whose header fields (Priority) are still being read. */
    let layerHeader: VfpIndexLayer | undefined;
    let awaiting: { line: number } | undefined;

    const openPort = (name: string, line: number, lineStart: number, byteStart: number, implicit: boolean): void => {
      if (port) port.byteEnd = byteStart;
      port = { name, line, lineStart, byteStart, byteEnd: n, layers: 0, groups: 0, rules: 0, implicit, firstLayer: layers.length };
      ports.push(port);
      layerIdx = -1;
      layerHeader = undefined;
    };
    const ensurePort = (line: number): VfpIndexPort => {
      if (!port) openPort(opts.defaultPortName ?? '', line, 1, 0, true);
      return port!;
    };

    while (pos < n) {
      lineNo++;
      let end = bytes.indexOf(LF, pos);
      if (end < 0) end = n;
      const ls = pos;
      pos = end + 1;
      const i = skipBlanks(bytes, ls, end);
      if (i >= end) continue;
      const c = bytes[i];
      if (c === CR && trimEnd(bytes, i, end) === i) continue;

      let kw = 0; // 1 LAYER, 2 GROUP, 3 RULE
      let after = -1;
      if (c === 76 && at(bytes, i, end, K_LAYER)) {
        after = colonAfter(bytes, i + 5, end);
        if (after >= 0) kw = 1;
      } else if (c === 71 && at(bytes, i, end, K_GROUP)) {
        after = colonAfter(bytes, i + 5, end);
        if (after >= 0) kw = 2;
      } else if (c === 82 && at(bytes, i, end, K_RULE)) {
        after = colonAfter(bytes, i + 4, end);
        if (after >= 0) kw = 3;
      }
      let boundaryAfter = -1;
      let blockedAfter = -1;
      if (kw === 0) {
        if ((c === 80 || c === 112) && atFold(bytes, i, end, K_POLICY)) boundaryAfter = colonAfter(bytes, i + K_POLICY.length, end);
        else if ((c === 66 || c === 98) && atFold(bytes, i, end, K_BLOCKED)) blockedAfter = colonAfter(bytes, i + K_BLOCKED.length, end);
      }

      if (awaiting) {
        awaiting = undefined;
        if (kw === 0 && boundaryAfter < 0 && blockedAfter < 0) {
          // Mirrors isPortNameLine: no blanks, no colon, not a ==== rule.
          const e = trimEnd(bytes, i, end);
          let ok = c !== 61;
          for (let k = i; ok && k < e; k++) {
            const b = bytes[k];
            if (b === SP || b === TAB || b === COLON) ok = false;
          }
          if (ok) {
            port!.name = text(bytes, i, e);
            continue;
          }
        }
      }

      if (kw !== 0) {
        if (firstContentByte < 0) firstContentByte = ls;
        const p = ensurePort(lineNo);
        const pi = ports.length - 1;
        if (kw === 1) {
          p.layers++;
          layerIdx = layers.length;
          layerHeader = { port: pi, name: text(bytes, skipBlanks(bytes, after, end), trimEnd(bytes, after, end)), line: lineNo, byte: ls };
          layers.push(layerHeader);
        } else if (kw === 2) {
          p.groups++;
          layerHeader = undefined;
          groupByte.push(ls);
          groupLine.push(lineNo);
          groupPort.push(pi);
        } else {
          p.rules++;
          layerHeader = undefined;
          ruleByte.push(ls);
          ruleLine.push(lineNo);
          rulePort.push(pi);
          ruleLayer.push(layerIdx);
        }
        continue;
      }
      if (boundaryAfter >= 0) {
        if (firstContentByte < 0) firstContentByte = ls;
        const rs = skipBlanks(bytes, boundaryAfter, end);
        const re = trimEnd(bytes, rs, end);
        openPort(text(bytes, rs, re), lineNo, lineNo, ls, false);
        if (re <= rs) awaiting = { line: lineNo };
        continue;
      }
      if (blockedAfter >= 0) {
        const p = ensurePort(lineNo);
        // Mirrors policy-text.ts: a Blocked line ends the policy blocks (here: the layer header).
        layerHeader = undefined;
        layerIdx = -1;
        const v = skipBlanks(bytes, blockedAfter, end);
        if (v < end) {
          const b = boolAt(bytes[v]);
          if (b !== undefined) p.blocked = b;
        }
        continue;
      }
      if (layerHeader && (c === 80 || c === 112) && atFold(bytes, i, end, K_PRIORITY)) {
        const a = colonAfter(bytes, i + K_PRIORITY.length, end);
        if (a >= 0) {
          let k = skipBlanks(bytes, a, end);
          let v = 0, digits = 0;
          while (k < end && bytes[k] >= 48 && bytes[k] <= 57 && digits < 15) {
            v = v * 10 + (bytes[k++] - 48);
            digits++;
          }
          if (digits > 0) layerHeader.priority = v;
          layerHeader = undefined;
        }
        continue;
      }
      if ((c === 67 || c === 99) && atFold(bytes, i, end, K_COMMAND)) {
        // `Command <verb> succeeded!`
        let k = skipBlanks(bytes, i + K_COMMAND.length, end);
        const vs = k;
        while (k < end && bytes[k] !== SP && bytes[k] !== TAB && bytes[k] !== CR) k++;
        if (k > vs && k - vs < 64) {
          const rest = skipBlanks(bytes, k, end);
          if (atFold(bytes, rest, end, K_SUCCEEDED)) {
            const verb = text(bytes, vs, k).toLowerCase();
            commands[verb] = (commands[verb] ?? 0) + 1;
            // Mirrors policy-text.ts: a trailer ends the policy blocks of that output.
            layerHeader = undefined;
            layerIdx = -1;
          }
        }
        continue;
      }
      if ((c === 73 || c === 105) && atFold(bytes, i, end, K_ITEM_LIST) && trimEnd(bytes, i, end) === i + K_ITEM_LIST.length) {
        // A new vfpctrl output starts: rules after it are not under the previous LAYER (policy-text.ts agrees).
        layerHeader = undefined;
        layerIdx = -1;
        continue;
      }
      if (!sawCounters && (c === 77 || c === 109) && atFold(bytes, i, end, K_MATCHED)) sawCounters = true;
    }
  } catch (e) {
    sink.error(lineNo, `internal error while scanning VFP output: ${e instanceof Error ? e.message : String(e)}`);
  }

  let portTable: VfpPortTableRow[] = [];
  try {
    // The PS port table sits before the first port; it is small, so the string parser reads it.
    const limit = Math.min(firstContentByte < 0 ? n : firstContentByte, 4 * 1024 * 1024);
    if (limit > 0) {
      const t = parseVfpOutputPortTable(nameDecoder.decode(bytes.subarray(0, limit)), file);
      portTable = t.value;
      sink.issues.push(...t.issues);
    }
  } catch (e) {
    sink.error(0, `internal error while reading the port table: ${e instanceof Error ? e.message : String(e)}`);
  }

  const totals = { ports: ports.length, layers: 0, groups: 0, rules: 0 };
  for (const p of ports) {
    totals.layers += p.layers;
    totals.groups += p.groups;
    totals.rules += p.rules;
  }
  const generation: VfpOutputGeneration =
    commands['get-rule-counter'] || sawCounters ? 'get-rule-counter' : commands['list-rule'] ? 'list-rule' : 'unknown';
  if (n === 0) sink.info(0, 'empty file');
  else if (ports.length === 0) sink.info(0, 'no VFP port policy (LAYER/GROUP/RULE or Policy for port) found');

  return {
    value: {
      file,
      bytes: n,
      lines: lineNo,
      ports,
      layers,
      groupByte: groupByte.a.subarray(0, groupByte.n),
      groupLine: groupLine.a.subarray(0, groupLine.n),
      groupPort: groupPort.a.subarray(0, groupPort.n),
      ruleByte: ruleByte.a.subarray(0, ruleByte.n),
      ruleLine: ruleLine.a.subarray(0, ruleLine.n),
      rulePort: rulePort.a.subarray(0, rulePort.n),
      ruleLayer: ruleLayer.a.subarray(0, ruleLayer.n),
      totals,
      portTable,
      generation,
      commands,
    },
    issues: sink.issues,
  };
}

