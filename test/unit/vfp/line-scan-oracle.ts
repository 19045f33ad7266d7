// Test oracle for scanVfpOutput, written from the format and not from the scanner: the file is read
// as text (one character per byte, so character offsets are byte offsets), split into lines, and each
// line is matched by a regular expression that says what the line is. It shares no code with
// parsers/vfp/scan.ts (whose byte-level keyword matching it checks); only the port-table parser and
// the issue sink are common, and they are not what is under test here.
import { IssueSink } from '../../../parsers/types.ts';
import type { ParseResult } from '../../../parsers/types.ts';
import type { VfpPortTableRow } from '../../../parsers/vfp/types.ts';
import { parseVfpOutputPortTable } from '../../../parsers/vfp/port-table.ts';

interface OraclePort {
  name: string;
  line: number;
  lineStart: number;
  byteStart: number;
  byteEnd: number;
  layers: number;
  groups: number;
  rules: number;
  blocked?: boolean;
  implicit: boolean;
  firstLayer: number;
}

interface OracleLayer {
  port: number;
  name: string;
  priority?: number;
  line: number;
  byte: number;
}

export interface OracleIndex {
  file: string;
  bytes: number;
  lines: number;
  ports: OraclePort[];
  layers: OracleLayer[];
  groupByte: number[];
  groupLine: number[];
  groupPort: number[];
  ruleByte: number[];
  ruleLine: number[];
  rulePort: number[];
  ruleLayer: number[];
  totals: { ports: number; layers: number; groups: number; rules: number };
  portTable: VfpPortTableRow[];
  generation: 'list-rule' | 'get-rule-counter' | 'unknown';
  commands: Record<string, number>;
}

// What a line is, by its text after leading blanks (spaces and tabs). Block keywords are upper case
// exactly as vfpctrl prints them; the other labels are matched in any case.
const BLOCK = /^(LAYER|GROUP|RULE)[ \t]*:(.*)$/s;
const PORT_BOUNDARY = /^policy for port[ \t]*:(.*)$/is;
const BLOCKED = /^blocked[ \t]*:[ \t]*(.?)/is;
const PRIORITY_LABEL = /^priority/i;
const PRIORITY = /^priority[ \t]*:[ \t]*(\d{1,15})?/i;
const COMMAND_LABEL = /^command/i;
// The verb is the whole run of non-blanks (lookahead + backreference: no backtracking into it).
const COMMAND = /^command[ \t]*(?=([^ \t\r]+))\1[ \t]*succeeded/i;
const ITEM_LIST = /^item list[ \t\r]*$/i;
const MATCHED = /^matched/i;

const trimEnd = (s: string) => s.replace(/[ \t\r]+$/, '');
const trimStart = (s: string) => s.replace(/^[ \t]+/, '');
const utf8 = new TextDecoder('utf-8');
/** A slice of the one-char-per-byte text, decoded as the UTF-8 it is. */
const decode = (s: string) => utf8.decode(Uint8Array.from(s, (c) => c.charCodeAt(0)));
const truthy = (c: string) => (/[tT1yY]/.test(c) ? true : /[fF0nN]/.test(c) ? false : undefined);

function asText(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

export function lineScanOracle(bytes: Uint8Array, file: string, opts: { defaultPortName?: string } = {}): ParseResult<OracleIndex> {
  const sink = new IssueSink(file);
  const text = asText(bytes);
  const n = text.length;
  const idx: OracleIndex = {
    file, bytes: n, lines: 0, ports: [], layers: [], groupByte: [], groupLine: [], groupPort: [], ruleByte: [], ruleLine: [], rulePort: [], ruleLayer: [],
    totals: { ports: 0, layers: 0, groups: 0, rules: 0 }, portTable: [], generation: 'unknown', commands: {},
  };
  let port: OraclePort | undefined;
  let layerIdx = -1;
  let layerHeader: OracleLayer | undefined;
  let awaitingName = false;
  let sawCounters = false;
  let firstContent = -1;

  const openPort = (name: string, line: number, lineStart: number, byteStart: number, implicit: boolean) => {
    if (port) port.byteEnd = byteStart;
    port = { name, line, lineStart, byteStart, byteEnd: n, layers: 0, groups: 0, rules: 0, implicit, firstLayer: idx.layers.length };
    idx.ports.push(port);
    layerIdx = -1;
    layerHeader = undefined;
  };
  const currentPort = (line: number) => {
    if (!port) openPort(opts.defaultPortName ?? '', line, 1, 0, true);
    return port!;
  };

  let start = text.startsWith('\xef\xbb\xbf') ? 3 : 0;
  while (start < n) {
    const nl = text.indexOf('\n', start);
    const stop = nl < 0 ? n : nl;
    const lineByte = start;
    const lineNo = ++idx.lines;
    const body = trimStart(text.slice(start, stop));
    start = stop + 1;
    if (trimEnd(body) === '') continue;

    const block = BLOCK.exec(body);
    const boundary = block ? null : PORT_BOUNDARY.exec(body);
    const blocked = block || boundary ? null : BLOCKED.exec(body);

    if (awaitingName) {
      awaitingName = false;
      const name = trimEnd(body);
      // A port name printed on its own line after an empty `Policy for port :`.
      if (!block && !boundary && !blocked && !body.startsWith('=') && !/[ \t:]/.test(name)) {
        port!.name = decode(name);
        continue;
      }
    }

    if (block) {
      if (firstContent < 0) firstContent = lineByte;
      const p = currentPort(lineNo);
      const pi = idx.ports.length - 1;
      if (block[1] === 'LAYER') {
        p.layers++;
        layerIdx = idx.layers.length;
        layerHeader = { port: pi, name: decode(trimEnd(trimStart(block[2]))), line: lineNo, byte: lineByte };
        idx.layers.push(layerHeader);
      } else if (block[1] === 'GROUP') {
        p.groups++;
        layerHeader = undefined;
        idx.groupByte.push(lineByte);
        idx.groupLine.push(lineNo);
        idx.groupPort.push(pi);
      } else {
        p.rules++;
        layerHeader = undefined;
        idx.ruleByte.push(lineByte);
        idx.ruleLine.push(lineNo);
        idx.rulePort.push(pi);
        idx.ruleLayer.push(layerIdx);
      }
      continue;
    }
    if (boundary) {
      if (firstContent < 0) firstContent = lineByte;
      const name = trimEnd(trimStart(boundary[1]));
      openPort(decode(name), lineNo, lineNo, lineByte, false);
      awaitingName = name === '';
      continue;
    }
    if (blocked) {
      const p = currentPort(lineNo);
      // `Blocked :` closes the port's policy blocks: what follows is port state, not a layer.
      layerHeader = undefined;
      layerIdx = -1;
      const b = truthy(blocked[1]);
      if (b !== undefined) p.blocked = b;
      continue;
    }
    if (layerHeader && PRIORITY_LABEL.test(body)) {
      const m = PRIORITY.exec(body);
      if (m) {
        if (m[1] !== undefined) layerHeader.priority = Number(m[1]);
        layerHeader = undefined;
      }
      continue;
    }
    if (COMMAND_LABEL.test(body)) {
      const m = COMMAND.exec(body);
      if (m && m[1].length < 64) {
        const verb = decode(m[1]).toLowerCase();
        idx.commands[verb] = (idx.commands[verb] ?? 0) + 1;
        // A `Command … succeeded!` trailer ends the policy blocks of that output.
        layerHeader = undefined;
        layerIdx = -1;
      }
      continue;
    }
    if (ITEM_LIST.test(body)) {
      // A new vfpctrl output starts: rules after it are not under the previous LAYER.
      layerHeader = undefined;
      layerIdx = -1;
      continue;
    }
    if (MATCHED.test(body)) sawCounters = true;
  }

  // The PowerShell port table sits before the first port.
  const tableEnd = Math.min(firstContent < 0 ? n : firstContent, 4 * 1024 * 1024);
  if (tableEnd > 0) {
    const t = parseVfpOutputPortTable(utf8.decode(bytes.subarray(0, tableEnd)), file);
    idx.portTable = t.value;
    sink.issues.push(...t.issues);
  }
  idx.totals = {
    ports: idx.ports.length,
    layers: idx.ports.reduce((s, p) => s + p.layers, 0),
    groups: idx.ports.reduce((s, p) => s + p.groups, 0),
    rules: idx.ports.reduce((s, p) => s + p.rules, 0),
  };
  idx.generation = idx.commands['get-rule-counter'] || sawCounters ? 'get-rule-counter' : idx.commands['list-rule'] ? 'list-rule' : 'unknown';
  if (n === 0) sink.info(0, 'empty file');
  else if (idx.ports.length === 0) sink.info(0, 'no VFP port policy (LAYER/GROUP/RULE or Policy for port) found');
  return { value: idx, issues: sink.issues };
}
