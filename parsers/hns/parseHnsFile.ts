// Reads any file holding HNS objects as ConvertTo-Json output, optionally after a PowerShell table:
// collectlogs' network.txt, networkdetailed.txt, endpoint.txt, namespaces.txt, policy.txt, and
// single saved outputs (Get-NetView's Get-HNSEndpoint-2.txt, a pasted `Get-HnsEndpoint | ConvertTo-Json`).
// Objects are classified by shape, not by file name; the name only breaks ties.

import { IssueSink } from '../types.ts';
import type { ParseResult } from '../types.ts';
import { capIssues, readPsJson } from '../json/psJson.ts';
import type { HnsFile, HnsKind } from './types.ts';
import { normaliseHnsObject } from './normalise.ts';
import { readPsTableText } from './psTable.ts';
import { guessTableKind, objectsFromTable } from './tableFallback.ts';

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
  const json = readPsJson(text, sink.file);
  sink.issues.push(...json.issues);
  const read = json.value;

  for (const el of read.elements) {
    // A nested array (`@(...)` piped as one object) is read element by element.
    const items = Array.isArray(el.value) ? el.value : [el.value];
    for (const item of items) {
      const n = normaliseHnsObject(item, el.line, sink, opts.expect);
      if (el.partial && n.kind !== 'unknown') n.value.partial = true;
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
          value.unknown.push({ value: item, line: el.line });
      }
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
      sink.warn(rows[0].line, `${count} ${kind} object(s) taken from the PowerShell table because the JSON is ${read.jsonStartLine === null ? 'missing' : 'incomplete'}; they lack policies and most details`);
      value.networks.push(...extra.networks);
      value.endpoints.push(...extra.endpoints);
      value.namespaces.push(...extra.namespaces);
    }
  }

  if (read.jsonStartLine === null && rows.length === 0) {
    if (text.trim() === '') sink.info(0, 'file is empty');
    else sink.warn(1, 'no HNS JSON found in this file');
  }
  value.kind = dominantKind(value, opts.expect);
}

function dominantKind(v: HnsFile, expect?: HnsKind): HnsKind {
  const counts: [HnsKind, number][] = [
    ['network', v.networks.length],
    ['endpoint', v.endpoints.length],
    ['loadbalancer', v.loadBalancers.length],
    ['namespace', v.namespaces.length],
  ];
  counts.sort((a, b) => b[1] - a[1]);
  if (counts[0][1] === 0) return v.unknown.length > 0 || !expect ? 'unknown' : expect;
  if (expect && counts.find((c) => c[0] === expect)![1] === counts[0][1]) return expect;
  return counts[0][0];
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
