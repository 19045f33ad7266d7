// Reads any file holding HNS objects as ConvertTo-Json output, optionally after a PowerShell table:
// collectlogs' network.txt, networkdetailed.txt, endpoint.txt, namespaces.txt, policy.txt, and
// single saved outputs (Get-NetView's Get-HNSEndpoint-2.txt, a pasted `Get-HnsEndpoint | ConvertTo-Json`).
// Objects are classified by shape, not by file name; the name only breaks ties.

import { IssueSink } from '../types.ts';
import type { ParseResult } from '../types.ts';
import { capIssues, readPsJson } from '../json/ps-json.ts';
import type { HnsFile, HnsKind } from './types.ts';
import { normaliseHnsObject } from './normalise.ts';
import { readPsTableText } from './ps-table.ts';
import { guessTableKind, objectsFromTable } from './table-fallback.ts';
import { readHnsListView } from './list-view.ts';
import { unwrapJsonLines } from '../json/unwrap.ts';
import { readJsonFragment } from '../json/fragment.ts';
import { field, isObj, str } from './access.ts';
import { classifyHnsObject } from './classify.ts';
import type { HnsOrigin } from './normalise.ts';
import { plural } from '../text/quantities.ts';

export interface HnsFileOptions {
  /** The kind the file is expected to hold (from its name); used for shapeless objects and the table. */
  expect?: HnsKind;
}

export function parseHnsFile(text: string, file: string, opts: HnsFileOptions = {}): ParseResult<HnsFile> {
  const sink = new IssueSink(file);
  const value: HnsFile = { kind: 'unknown', networks: [], endpoints: [], loadBalancers: [], namespaces: [], unknown: [] };
  try {
    let t = text ?? '';
    if (t.charCodeAt(0) === 0xfeff) t = t.slice(1);
    fill(t, sink, opts, value);
  } catch (e) {
    sink.error(0, `HNS file could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { value, issues: capIssues(sink.issues, file, 300) };
}

function fill(text: string, sink: IssueSink, opts: HnsFileOptions, value: HnsFile): void {
  let json = readPsJson(text, sink.file);
  // Compact JSON copied from a console is hard-wrapped at its width: rejoin it and read again. A
  // complete wrapped document still parses when every cut falls between tokens or inside strings,
  // but then its IDs and IPs hold line breaks ("10\n.244.1.5"): a raw break in a string is the sign.
  let unwrapped: string | undefined;
  let unwrapNote = '';
  if (!json.value.complete || json.value.jsonStartLine === null || json.value.brokenStrings > 0) {
    const u = unwrapJsonLines(text);
    if (u) {
      unwrapNote = `compact JSON hard-wrapped at ${u.width} columns (a console copy): ${u.joins} line breaks joined again`;
      const again = readPsJson(u.text, sink.file);
      const a = again.value;
      const b = json.value;
      const unbroken = b.brokenStrings > 0 && a.brokenStrings < b.brokenStrings && a.jsonStartLine !== null && a.elements.length >= b.elements.length && (a.complete || !b.complete);
      if (a.elements.length > b.elements.length || (a.complete && !b.complete && a.jsonStartLine !== null) || unbroken) {
        text = u.text;
        json = again;
        sink.info(1, unwrapNote);
      } else if (json.value.jsonStartLine === null) unwrapped = u.text;
    }
  }
  sink.issues.push(...json.issues);
  const read = json.value;

  const add = (item: unknown, line: number, partial: boolean, origin: HnsOrigin): void => {
    const n = normaliseHnsObject(item, line, sink, opts.expect, origin);
    if (partial && n.kind !== 'unknown') n.value.partial = true;
    // PowerShell's list view drops what lies one level down (System.Object[]): like the table, it
    // is a lossy rendering, and checks must not conclude from what it left out.
    if (origin === 'list' && n.kind !== 'unknown') n.value.fromTable = true;
    switch (n.kind) {
      case 'network':
        value.networks.push(n.value);
        break;
      case 'endpoint':
        value.endpoints.push(n.value);
        break;
      case 'loadbalancer':
        value.loadBalancers.push(n.value);
        break;
      case 'namespace':
        value.namespaces.push(n.value);
        break;
      default:
        value.unknown.push({ value: item, line });
    }
  };

  for (const el of read.elements) {
    for (const item of unwrapEnvelope(el.value, el.line, sink)) add(item, el.line, el.partial === true, 'json');
  }

  if (read.jsonStartLine === null) {
    if (readListView(text, sink, value, add)) {
      value.kind = dominantKind(value, opts.expect);
      return;
    }
    if (readFragment(text, sink, add) || (unwrapped !== undefined && readFragment(unwrapped, sink, add, unwrapNote))) {
      value.kind = dominantKind(value, opts.expect);
      return;
    }
  }

  const rows = read.prefixText.trim() === '' ? [] : readPsTableText(read.prefixText);
  if (rows.length > 0) value.table = rows.map((r) => r.cells);
  const jsonShort = read.jsonStartLine === null || !read.complete;
  if (rows.length > 0 && jsonShort) {
    let kind = opts.expect ?? guessTableKind(rows);
    if (kind === 'unknown' || kind === 'loadbalancer') kind = guessTableKind(rows);
    const extra = objectsFromTable(rows, kind, sink, value);
    const count = extra.networks.length + extra.endpoints.length + extra.namespaces.length;
    if (count > 0) {
      sink.warn(rows[0]?.line ?? 0, `${plural(count, `${kind} object`)} taken from the PowerShell table because the JSON is ${read.jsonStartLine === null ? 'missing' : 'incomplete'}; they lack policies and most details`);
      value.networks.push(...extra.networks);
      value.endpoints.push(...extra.endpoints);
      value.namespaces.push(...extra.namespaces);
    }
  }

  if (read.jsonStartLine === null && rows.length === 0) {
    const cmd = onlyPrompts(text);
    if (text.trim() === '') sink.info(0, 'file is empty');
    else if (cmd) sink.warn(cmd.line, `the command ${JSON.stringify(cmd.command)} printed nothing: no output follows it (there were no such objects where it ran, or the output was not copied)`);
    else sink.warn(1, 'no HNS objects found: no JSON, list view or table of HNS objects in this text');
  } else if (read.jsonStartLine !== null && read.complete && read.elements.every((e) => isEmptyValue(e.value)) && rows.length === 0) {
    // `[]` is read as an array of no elements; `{}` and null as one empty element.
    const line = read.elements[0]?.line ?? read.jsonStartLine;
    const shown = read.elements[0] ? JSON.stringify(read.elements[0].value) : '[]';
    sink.warn(line, `the command printed nothing: only an empty value (${shown}) (there were no such objects where it ran)`);
  }
  value.kind = dominantKind(value, opts.expect);
}

type Add = (item: unknown, line: number, partial: boolean, origin: HnsOrigin) => void;

/**
 * HNS's v1 REST answer `{"Success":true,"Output":…}` (hns.psm1's Invoke-HNSRequest, tools that call
 * HNS directly) holds the objects in `Output`; a failed call carries `Error` instead.
 */
function unwrapEnvelope(v: unknown, line: number, sink: IssueSink): unknown[] {
  if (Array.isArray(v)) return v;
  if (!isObj(v) || field(v, 'Success') === undefined || (field(v, 'Output') === undefined && field(v, 'Error') === undefined)) return [v];
  if (field(v, 'Success') === false) {
    sink.warn(line, `HNS answered with an error: ${str(v, 'Error') ?? '(no message)'}${str(v, 'ErrorCode') ? ` (ErrorCode ${str(v, 'ErrorCode')})` : ''}`);
  }
  const out = field(v, 'Output');
  if (out === undefined || out === null) return [];
  return Array.isArray(out) ? out : [out];
}

/** Objects printed by PowerShell's default list view. True when at least one HNS object was read. */
function readListView(text: string, sink: IssueSink, value: HnsFile, add: Add): boolean {
  const list = readHnsListView(text, sink.file);
  const hns = list.records.filter((r) => classifyHnsObject(r.value) !== 'unknown');
  if (hns.length === 0) return false;
  const before = value.networks.length + value.endpoints.length + value.loadBalancers.length + value.namespaces.length;
  for (const [k, r] of list.records.entries()) {
    // The last record of a paste that was cut in the middle is missing what came after the cut.
    const cutAfter = k === list.records.length - 1 && list.otherLines.some((l) => l === r.endLine + 1 || l === r.endLine);
    add(r.value, r.line, r.cut || cutAfter, 'list');
    // An error, like truncated JSON (json/psJson.ts): the object is incomplete, the file is broken there.
    if (r.cut || cutAfter) sink.error(r.endLine, 'the text ends inside this object: what came after the cut is not in it');
  }
  const firstLine = list.records[0]?.line ?? 0;
  const others = list.otherLines.filter((l) => l < firstLine);
  const [firstOther] = others;
  if (firstOther !== undefined) sink.info(firstOther, `${others.length} line${others.length > 1 ? 's' : ''} before the output (prompt, command, labels) not read`);
  return value.networks.length + value.endpoints.length + value.loadBalancers.length + value.namespaces.length > before;
}

/** A piece cut out of an HNS JSON document (no opening brace, starts inside an object). */
function readFragment(text: string, sink: IssueSink, add: Add, note?: string): boolean {
  if (!/"[^"\r\n]{1,200}"\s*:/.test(text.slice(0, 8192))) return false;
  const frag = readJsonFragment(text);
  const hns = frag.objects.filter((o) => classifyHnsObject(o.value) !== 'unknown');
  const [first] = hns;
  if (!first) return false;
  if (note) sink.info(1, note);
  sink.info(first.line, 'a piece of HNS JSON without its beginning: objects read from the members that follow the cut');
  for (const o of hns) add(o.value, o.line, true, 'fragment');
  if (frag.stoppedAt) sink.info(frag.stoppedAt, 'other text follows the JSON piece; not read');
  return true;
}

function dominantKind(v: HnsFile, expect?: HnsKind): HnsKind {
  const counts: Record<Exclude<HnsKind, 'unknown'>, number> = {
    network: v.networks.length,
    endpoint: v.endpoints.length,
    loadbalancer: v.loadBalancers.length,
    namespace: v.namespaces.length,
  };
  // The most objects; on a tie the first in this order (a stable sort of the kinds by count).
  const [top, most] = Object.entries(counts).reduce<[HnsKind, number]>((best, [k, n]) => (n > best[1] ? [k as HnsKind, n] : best), ['network', counts.network]);
  if (most === 0) return v.unknown.length > 0 || !expect ? 'unknown' : expect;
  if (expect && expect !== 'unknown' && counts[expect] === most) return expect;
  return top;
}

export function parseNetworkTxt(text: string, file = 'network.txt'): ParseResult<HnsFile> {
  return parseHnsFile(text, file, { expect: 'network' });
}

/** networkdetailed.txt: the same network documents, queried with the Detailed flag. */
export const parseNetworkDetailedTxt = (text: string, file = 'networkdetailed.txt'): ParseResult<HnsFile> => parseNetworkTxt(text, file);

export function parseEndpointTxt(text: string, file = 'endpoint.txt'): ParseResult<HnsFile> {
  return parseHnsFile(text, file, { expect: 'endpoint' });
}

export function parseNamespacesTxt(text: string, file = 'namespaces.txt'): ParseResult<HnsFile> {
  return parseHnsFile(text, file, { expect: 'namespace' });
}

export function parsePolicyTxt(text: string, file = 'policy.txt'): ParseResult<HnsFile> {
  return parseHnsFile(text, file, { expect: 'loadbalancer' });
}

/** `[]`, `{}`, null: what ConvertTo-Json writes for a pipeline with no objects (or an HNS answer with none). */
function isEmptyValue(v: unknown): boolean {
  if (v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObj(v) && Object.keys(v).length === 0;
}

/** A text of PowerShell prompts only, the first with a command: the command and its line. */
function onlyPrompts(text: string): { command: string; line: number } | null {
  const lines = text.split(/\r\n|\n|\r/, 200);
  let found: { command: string; line: number } | null = null;
  for (const [i, line] of lines.entries()) {
    const t = line.trim();
    if (t === '') continue;
    const command = /^PS [^>]{0,260}>\s*(.*)$/.exec(t)?.[1];
    if (command === undefined) return null;
    if (!found && command !== '') found = { command: command.length > 100 ? command.slice(0, 100) + '…' : command, line: i + 1 };
  }
  return found;
}
