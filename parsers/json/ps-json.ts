// Reads the JSON part of a PowerShell-written file: `Select ... > f` table text, then
// `ConvertTo-Json -Depth N >> f` output (a bare object for one pipeline object, an array for
// several), or a stream of column-0 objects as `hnsdiag list ... -d` prints them.
// Each top-level element is parsed on its own (native JSON.parse first, the lenient reader only on
// failure) so one damaged element costs that element, not the file, and every element keeps the
// line it starts on.

import { IssueSink } from '../types.ts';
import type { ParseIssue, ParseResult } from '../types.ts';
import { LineIndex } from './line-index.ts';
import { LINE_BREAK_IN_STRING, parseLenient } from './lenient.ts';
import { scanValueEnd, skipWs, type ScanEnd } from './structure.ts';
import { capDepth, MAX_JSON_DEPTH } from './depth.ts';
import { salvageTruncated } from './salvage.ts';

export interface JsonElement {
  value: unknown;
  /** 1-based line where the element starts. */
  line: number;
  /** 1-based line where the element ends. */
  endLine: number;
  /** The file ended inside this element: only the members before `endLine` were read. */
  partial?: boolean;
}

export interface PsJsonRead {
  elements: JsonElement[];
  /** 1-based line where the JSON part starts, or null when the file holds no JSON. */
  jsonStartLine: number | null;
  /** Text before the JSON part (the PowerShell table or list, prompts, headers). */
  prefixText: string;
  /** 'array' / 'object': one top-level value; 'stream': several; 'none': no JSON found. */
  shape: 'array' | 'object' | 'stream' | 'none';
  /** False when an element was dropped or the JSON ended early. */
  complete: boolean;
  /**
   * Strings read with a raw line break inside: compact JSON hard-wrapped by a console (the caller
   * should rejoin the lines, json/unwrap.ts, and read again rather than keep the breaks).
   */
  brokenStrings: number;
}

export interface PsJsonOptions {
  /**
   * hnsdiag `-d` style: text lines between column-0 objects are expected (headers) and skipped
   * silently; every column-0 `{`/`[` starts a new value.
   */
  stream?: boolean;
  /** Accept an excerpt whose outer `{` is missing (first JSON line is `"Key": value`). Default true. */
  allowBraceless?: boolean;
}

const JSON_START = /^(?:[[{]\s*$|\{\s*["}]|\[\s*[{["\]])/;
const BRACELESS_START = /^"[^"\r\n]{1,200}"\s*:/;
// A tool's own label in front of compact JSON on one line (`Response: {"Success":true,…}` in the
// corpus sample hns-v1-rest-json-nat-network, docker-netrestore's console output).
const LABELLED_START = /^([A-Za-z][\w .()-]{0,40}:\s*)\{"/;

/** A bare PowerShell prompt (`PS C:\k>`), as a paste ends with. */
const PS_PROMPT = /^\s*PS [A-Za-z]:[^>\r\n]{0,260}>\s*$/;

interface Start {
  offset: number;
  braceless: boolean;
}

/** Offset of the next line (at or after `from`, which must be a line start) that opens JSON. */
function findStart(text: string, li: LineIndex, fromLine: number, braceless: boolean, labelled = false): Start | null {
  for (let line = fromLine; line <= li.lineCount; line++) {
    const off = li.startOf(line);
    const c = text.charCodeAt(off);
    if (c !== 123 && c !== 91 && c !== 34 && c !== 0xfeff) continue;
    let s = li.lineText(line);
    let lead = 0;
    if (s.charCodeAt(0) === 0xfeff) {
      s = s.slice(1);
      lead = 1;
    }
    if (JSON_START.test(s)) return { offset: off + lead, braceless: false };
    if (braceless && BRACELESS_START.test(s)) return { offset: off + lead, braceless: true };
  }
  return labelled ? findLabelled(text, li, fromLine) : null;
}

function findLabelled(text: string, li: LineIndex, fromLine: number): Start | null {
  for (let line = fromLine; line <= li.lineCount; line++) {
    const m = LABELLED_START.exec(li.lineText(line));
    if (m && /[}\]]\s*$/.test(li.lineText(line))) return { offset: li.startOf(line) + (m[1] ?? '').length, braceless: false };
  }
  return null;
}

export function readPsJson(text: string, file: string, opts: PsJsonOptions = {}): ParseResult<PsJsonRead> {
  const sink = new IssueSink(file);
  const out: PsJsonRead = { elements: [], jsonStartLine: null, prefixText: '', shape: 'none', complete: true, brokenStrings: 0 };
  try {
    readInto(text, sink, opts, out);
  } catch (e) {
    // Defensive: the reader is written not to throw, but a bundle must still load if it does.
    sink.error(0, `JSON reader failed: ${e instanceof Error ? e.message : String(e)}`);
    out.complete = false;
  }
  return { value: out, issues: capIssues(sink.issues, file) };
}

/** Junk-filled files would otherwise yield one issue per token; the first ones tell the story. */
export function capIssues(issues: ParseIssue[], file: string, max = 100): ParseIssue[] {
  if (issues.length <= max) return issues;
  const kept = issues.slice(0, max);
  kept.push({ file, line: 0, severity: 'warning', message: `${issues.length - max} more issues not listed` });
  return kept;
}

function readInto(text: string, sink: IssueSink, opts: PsJsonOptions, out: PsJsonRead): void {
  const li = new LineIndex(text);
  const n = text.length;
  const stream = opts.stream === true;
  const allowBraceless = opts.allowBraceless !== false && !stream;
  // A value whose brackets never balance is scanned to the end of the file before the reader
  // resynchronises at the next line; a hostile file repeating such a value thousands of times would
  // make that quadratic. The text re-scanned by failed scans is capped at a few times the file.
  let rescanned = 0;
  const RESCAN_LIMIT = 8 * n + 1_000_000;
  const tooDamaged = (from: number, r: ScanEnd): boolean => {
    rescanned += (r.ok ? r.end : r.reason === 'eof' ? n : r.at) - from;
    if (rescanned <= RESCAN_LIMIT) return false;
    out.complete = false;
    sink.error(li.lineOf(from), `JSON too damaged to read past line ${li.lineOf(from)}: its brackets never balance again (hnsight stopped re-scanning it)`);
    return true;
  };

  const first = findStart(text, li, 1, allowBraceless, !stream);
  if (!first) {
    out.prefixText = text;
    return;
  }
  const firstLine = li.lineOf(first.offset);
  // Only a file whose JSON comes after a label keeps looking for more labelled lines.
  const labelledStart = first.offset - li.startOf(firstLine) > 1 && !first.braceless;
  out.jsonStartLine = firstLine;
  out.prefixText = text.slice(0, li.startOf(firstLine));

  let tops = 0;
  let start: Start | null = first;
  while (start) {
    tops++;
    let next: number;
    if (start.braceless) {
      sink.warn(li.lineOf(start.offset), 'JSON object has no opening brace (an excerpt?); read it anyway');
      if (tops === 1) out.shape = 'object';
      next = readSingle(start.offset, true);
    } else if (text.charCodeAt(start.offset) === 91) {
      if (tops === 1) out.shape = 'array';
      next = readArray(start.offset);
    } else {
      if (tops === 1) out.shape = 'object';
      next = readSingle(start.offset, false);
    }
    if (next >= n) break;
    // Look for another top-level value (appended output, hnsdiag stream); say when text is skipped.
    const fromLine = li.lineOf(next) + (li.startOf(li.lineOf(next)) === next ? 0 : 1);
    const tail = li.lineText(li.lineOf(next)).slice(next - li.startOf(li.lineOf(next))).trim();
    start = findStart(text, li, fromLine, false, !stream && labelledStart);
    const skippedTo = start ? start.offset : n;
    if (!stream) {
      noteSkipped(next, tail, fromLine, skippedTo, start !== null);
    }
  }
  if (tops > 1) out.shape = 'stream';

  /**
   * Says what lies between the end of a value and the next one (or the end of the file), at the line
   * it is on: text between two values read (a tool's own console lines), a closing PowerShell prompt,
   * or anything else after the JSON.
   */
  function noteSkipped(next: number, tail: string, fromLine: number, to: number, more: boolean): void {
    const lines: number[] = [];
    if (tail !== '') lines.push(li.lineOf(next));
    const toLine = to >= n ? li.lineCount : li.lineOf(to) - 1;
    for (let l = fromLine; l <= toLine && lines.length < 10_000; l++) if (li.lineText(l).trim() !== '') lines.push(l);
    const [head] = lines;
    if (head === undefined) return;
    const count = `${lines.length} line${lines.length > 1 ? 's' : ''}`;
    if (more) {
      sink.info(head, `${count} of other text between JSON values not read (from line ${head})`);
      return;
    }
    const promptOnly = lines.every((l) => PS_PROMPT.test(l === li.lineOf(next) ? tail : li.lineText(l)));
    if (promptOnly) sink.info(head, 'the PowerShell prompt after the JSON not read');
    else sink.warn(head, `text after the JSON value was ignored (${count} from line ${head})`);
  }

  function push(value: unknown, s: number, e: number): void {
    if (capDepth(value)) sink.warn(li.lineOf(s), `JSON nested deeper than ${MAX_JSON_DEPTH} levels (ConvertTo-Json writes at most 100): the deeper values were not read`);
    out.elements.push({ value, line: li.lineOf(s), endLine: li.lineOf(Math.max(s, e - 1)) });
  }

  /** Parses [s, e) as one value; false when it could not be read at all. */
  function parseSpan(s: number, e: number, braceless: boolean, closeAtEnd: boolean): boolean {
    if (!braceless) {
      try {
        push(JSON.parse(text.slice(s, e)), s, e);
        return true;
      } catch {
        // fall through to the lenient reader
      }
    }
    const r = parseLenient(text, s, e, { bracelessObject: braceless, closeAtEnd });
    for (const rep of r.repairs) {
      if (rep.message.startsWith('object has no opening brace')) continue;
      if (rep.message === LINE_BREAK_IN_STRING) out.brokenStrings++;
      sink.warn(li.lineOf(rep.at), `JSON repaired: ${rep.message}`);
    }
    if (r.ok) {
      push(r.value, s, e);
      return true;
    }
    out.complete = false;
    sink.error(li.lineOf(r.at), `JSON element starting at line ${li.lineOf(s)} could not be read: ${r.message}`);
    return false;
  }

  /** Keeps the complete members of an element the file ends inside; true when something was kept. */
  /** Keeps the complete members of the value cut at the end that starts at `s`; the last line kept, or null. */
  function salvage(s: number): number | null {
    const sv = salvageTruncated(text, s, n);
    if (!sv) return null;
    let value: unknown;
    try {
      value = JSON.parse(sv.json);
    } catch {
      const r = parseLenient(sv.json, 0, sv.json.length, { bracelessObject: false, closeAtEnd: true });
      if (!r.ok) return null;
      value = r.value;
    }
    if (value === null || typeof value !== 'object') return null;
    if (capDepth(value)) sink.warn(li.lineOf(s), `JSON nested deeper than ${MAX_JSON_DEPTH} levels (ConvertTo-Json writes at most 100): the deeper values were not read`);
    const endLine = li.lineOf(sv.keptTo);
    out.elements.push({ value, line: li.lineOf(s), endLine, partial: true });
    return endLine;
  }

  /** Column of `pos` when only spaces precede it on its line, else -1 (compact JSON). */
  function indentOf(pos: number): number {
    const ls = li.startOf(li.lineOf(pos));
    for (let i = ls; i < pos; i++) if (text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) return -1;
    return pos - ls;
  }

  /** Next line after `afterPos` that opens a value at exactly `indent` columns (resynchronisation). */
  function findAtIndent(afterPos: number, indent: number, limitLine = li.lineCount): number {
    if (indent < 0) return -1;
    for (let line = li.lineOf(afterPos) + 1; line <= limitLine; line++) {
      const ls = li.startOf(line);
      let i = ls;
      while (i < ls + indent && text.charCodeAt(i) === 32) i++;
      if (i !== ls + indent) continue;
      const c = text.charCodeAt(i);
      if (c === 123 || c === 91) return i;
    }
    return -1;
  }

  function readSingle(s: number, braceless: boolean): number {
    const r = scanValueEnd(text, s, n, braceless ? [125] : []);
    if (r.ok) {
      parseSpan(s, r.end, braceless, false);
      return r.end;
    }
    if (braceless && r.reason === 'eof') {
      // An excerpt that also lost its closing brace: read to the end and close it.
      parseSpan(s, n, true, true);
      return n;
    }
    if (tooDamaged(s, r)) return n;
    out.complete = false;
    const resync = findAtIndent(s, 0);
    if (resync !== -1) {
      sink.error(li.lineOf(r.reason === 'eof' ? resync : r.at), `JSON value starting at line ${li.lineOf(s)} is malformed (unbalanced brackets); skipped to line ${li.lineOf(resync)}`);
      return resync;
    }
    if (r.reason === 'eof') {
      const kept = salvage(s);
      sink.error(li.lineOf(n), `JSON truncated: value starting at line ${li.lineOf(s)} is not complete at the end of the file${kept !== null ? `; its members up to line ${kept} were kept` : ''}`);
    } else {
      sink.error(li.lineOf(r.at), `JSON value starting at line ${li.lineOf(s)} has an unmatched bracket`);
    }
    return n;
  }

  function readArray(open: number): number {
    let p = open + 1;
    let expectElement = true;
    for (;;) {
      p = skipWs(text, p, n);
      if (p >= n) {
        out.complete = false;
        sink.error(li.lineOf(n), `JSON truncated: array opened at line ${li.lineOf(open)} is not closed`);
        return n;
      }
      const c = text.charCodeAt(p);
      if (c === 93) return p + 1;
      if (c === 44) {
        const q = skipWs(text, p + 1, n);
        if (q < n && text.charCodeAt(q) === 93) sink.warn(li.lineOf(p), 'JSON repaired: trailing comma before ]');
        else if (expectElement) sink.warn(li.lineOf(p), 'JSON repaired: extra comma in array');
        p++;
        expectElement = true;
        continue;
      }
      const indent = indentOf(p);
      const r = scanValueEnd(text, p, n);
      if (r.ok && r.end <= p) {
        // A stray closer where an element should start.
        out.complete = false;
        sink.error(li.lineOf(p), `unexpected ${JSON.stringify(text.charAt(p))} in JSON array`);
        p++;
        continue;
      }
      if (!expectElement) sink.warn(li.lineOf(p), 'JSON repaired: missing comma between array elements');
      if (!r.ok) {
        if (tooDamaged(p, r)) return n;
        out.complete = false;
        const resync = findAtIndent(p, indent);
        if (resync !== -1) {
          sink.error(li.lineOf(r.reason === 'mismatch' ? r.at : p), `JSON element starting at line ${li.lineOf(p)} is malformed (unbalanced brackets); skipped to line ${li.lineOf(resync)}`);
          p = resync;
          expectElement = true;
          continue;
        }
        if (r.reason === 'eof') {
          const kept = salvage(p);
          sink.error(li.lineOf(n), `JSON truncated: element starting at line ${li.lineOf(p)} is not complete at the end of the file${kept !== null ? `; its members up to line ${kept} were kept` : ''}`);
        } else {
          sink.error(li.lineOf(r.at), `JSON element starting at line ${li.lineOf(p)} has an unmatched bracket`);
        }
        return n;
      }
      parseSpan(p, r.end, false, false);
      p = r.end;
      expectElement = false;
    }
  }
}
