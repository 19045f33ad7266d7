// hnsdiag.txt (`hnsdiag list all -d`) and its relatives (`hnsdiag list endpoints`, AKS's
// `<ts>-hnsdiag-list.txt`, Get-NetView's HNSDiag_all*.txt). Three layouts, by Windows build:
//  - legacy columns: `Networks:` / `Endpoints:` / `Namespaces:` / `LoadBalancers:` sections, each
//    with a header row (columns split by runs of spaces or ` | `), optional `-----` separators;
//  - per-object blocks: `Endpoint         : <guid>` then indented `Key : value` lines;
//  - `-d` JSON: documents starting at column 0, possibly between the lines above.
// A file may combine them; every object keeps the line it came from.

import { IssueSink } from '../types.ts';
import type { ParseResult } from '../types.ts';
import { capIssues, readPsJson } from '../json/psJson.ts';
import { normaliseHnsObject } from '../hns/normalise.ts';
import type { HnsKind } from '../hns/types.ts';
import type { Hnsdiag, HnsdiagEndpoint, HnsdiagJsonObject, HnsdiagLoadBalancer, HnsdiagNamespace, HnsdiagNetwork } from './types.ts';
import { cleanGuid, headerColumns, isGuidLike, isIp, isStrictGuid, tokenize } from './tokens.ts';

type Section = 'network' | 'endpoint' | 'namespace' | 'loadbalancer';

const SECTION_HEADER = /^\s*(networks|endpoints|namespaces|load\s?balancers)\s*:\s*$/i;
// Values are taken to the line's end and trimmed in code: a lazy value before \s*$ is quadratic in a
// long run of blanks inside it, which a hostile file has.
const BLOCK_START = /^(network|endpoint|namespace|load\s?balancer)\s*:\s*(\S.*)$/i;
// Indented in the real output; pasted copies often lose the indentation, so it is optional.
const KEY_VALUE = /^\s*(\S[^:]*?)\s+:\s?(.*)$/;
/** A key ends at the line's first colon: one past this is no key (the lazy key is quadratic in blanks before it). */
const MAX_KEY = 256;
const PROMPT = /^PS\s+[^>]*>\s?(.*)$/;
const SEPARATOR = /^[\s|=-]*-{3,}[\s|=-]*$/;

function sectionOf(word: string): Section {
  const w = word.toLowerCase().replace(/\s/g, '');
  if (w.startsWith('network')) return 'network';
  if (w.startsWith('endpoint')) return 'endpoint';
  if (w.startsWith('namespace')) return 'namespace';
  return 'loadbalancer';
}

/** The object a header row describes, from its labels (for outputs without a section line). */
function sectionFromHeader(cols: string[]): Section | null {
  const l = cols.map((c) => c.toLowerCase());
  if (!l.some((c) => c === 'id')) return null;
  if (l.some((c) => c.includes('virtual ip') || c.includes('direct ip'))) return 'loadbalancer';
  if (l.some((c) => c.includes('endpoint id'))) return 'namespace';
  if (l.some((c) => c.includes('network name') || c.includes('ip address'))) return 'endpoint';
  return 'network';
}

export function parseHnsdiag(text: string, file = 'hnsdiag.txt'): ParseResult<Hnsdiag> {
  const sink = new IssueSink(file);
  const value: Hnsdiag = { layout: 'empty', networks: [], endpoints: [], namespaces: [], loadBalancers: [], jsonObjects: [] };
  try {
    fill(text ?? '', sink, value);
  } catch (e) {
    sink.error(0, `hnsdiag output could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { value, issues: capIssues(sink.issues, file, 300) };
}

interface Block {
  kind: Section;
  id: string;
  line: number;
  props: Record<string, string>;
}

function fill(text: string, sink: IssueSink, out: Hnsdiag): void {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split(/\r?\n/);

  const json = readPsJson(text, sink.file, { stream: true });
  sink.issues.push(...json.issues);
  const jsonAt = new Map<number, (typeof json.value.elements)[number]>();
  const covered = new Uint8Array(lines.length + 2);
  for (const el of json.value.elements) {
    jsonAt.set(el.line, el);
    for (let l = el.line; l <= el.endLine && l <= lines.length; l++) covered[l] = 1;
  }

  let section: Section | null = null;
  let header: string[] | null = null;
  let block: Block | null = null;
  let legacyRows = 0;
  let blocks = 0;
  let unread = 0;

  const flushBlock = (): void => {
    if (block) addBlock(block, sink, out);
    block = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const ln = i + 1;
    const line = lines[i];
    const el = jsonAt.get(ln);
    if (el) {
      const fallback: HnsKind | undefined = block ? (block as Block).kind : (section ?? undefined);
      const items = Array.isArray(el.value) ? el.value : [el.value];
      for (const item of items) out.jsonObjects.push({ ...normaliseHnsObject(item, el.line, sink, fallback), line: el.line } as HnsdiagJsonObject);
    }
    if (covered[ln]) continue;
    const trimmed = line.trim();
    if (trimmed === '') {
      continue;
    }
    const prompt = PROMPT.exec(line);
    if (prompt) {
      flushBlock();
      const m = /hnsdiag(?:\.exe)?\s+list\s+(\w+)/i.exec(prompt[1]);
      section = m && !/^all$/i.test(m[1]) ? sectionOf(m[1]) : null;
      header = null;
      continue;
    }
    const sec = SECTION_HEADER.exec(line);
    if (sec) {
      flushBlock();
      section = sectionOf(sec[1]);
      header = null;
      continue;
    }
    const bs = BLOCK_START.exec(line);
    if (bs) {
      flushBlock();
      block = { kind: sectionOf(bs[1]), id: bs[2].trimEnd(), line: ln, props: {} };
      blocks++;
      continue;
    }
    if (block) {
      const colon = line.indexOf(':');
      const kv = colon > 0 && colon <= MAX_KEY + (line.length - line.trimStart().length) ? KEY_VALUE.exec(line) : null;
      if (kv) {
        (block as Block).props[kv[1]] = kv[2].trimEnd();
        continue;
      }
      flushBlock();
    }
    if (SEPARATOR.test(line)) continue;
    // Leftover JSON punctuation (an element the JSON reader could not use) is not a row.
    if (/^["{}[\]]/.test(trimmed)) {
      unread++;
      continue;
    }
    const tokens = tokenize(line);
    const guidIdx = tokens.findIndex(isGuidLike);
    if (guidIdx === -1) {
      const cols = headerColumns(line);
      const fromHeader = sectionFromHeader(cols);
      if (fromHeader) {
        header = cols;
        if (!section || section !== fromHeader) section = fromHeader;
        continue;
      }
      if (section && header) sink.warn(ln, `hnsdiag ${section} row has no ID: ${JSON.stringify(trimmed.slice(0, 120))}`);
      else unread++;
      continue;
    }
    if (!section) {
      unread++;
      continue;
    }
    legacyRows++;
    addRow(section, header, tokens, guidIdx, ln, sink, out);
  }
  flushBlock();

  mergeJsonSummaries(out, sink);
  const kinds = [legacyRows > 0, blocks > 0, json.value.elements.length > 0].filter(Boolean).length;
  if (kinds === 0) out.layout = 'empty';
  else if (kinds > 1) out.layout = 'mixed';
  else out.layout = legacyRows > 0 ? 'legacy' : blocks > 0 ? 'blocks' : 'json';

  if (kinds === 0) {
    if (text.trim() === '') sink.info(0, 'file is empty');
    else sink.warn(1, 'no hnsdiag objects found (not hnsdiag output, or a layout this reader does not know)');
  } else if (unread > 0) {
    sink.info(0, `${unread} line(s) outside any hnsdiag section were ignored`);
  }
}

function checkGuid(t: string, ln: number, what: string, sink: IssueSink): string {
  if (!isStrictGuid(t)) sink.warn(ln, `hnsdiag ${what} ID ${t} is not a well-formed GUID (damaged copy?); kept as is`);
  return cleanGuid(t);
}

/**
 * Spreads tokens over header labels: the labels before the ID column take the tokens before the
 * GUID (all but the last label take one token each from the end; the first takes the rest, since
 * names may hold spaces), likewise after it.
 */
function assign(tokens: string[], labels: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (labels.length === 0) return out;
  if (tokens.length === 0) return out;
  const rest = tokens.slice();
  const singles = labels.slice(1);
  const tail: string[] = [];
  for (let k = singles.length - 1; k >= 0 && rest.length > 1; k--) tail.unshift(rest.pop()!);
  out[labels[0]] = rest.join(' ');
  tail.forEach((t, k) => (out[singles[singles.length - tail.length + k]] = t));
  return out;
}

function addRow(section: Section, header: string[] | null, tokens: string[], guidIdx: number, ln: number, sink: IssueSink, out: Hnsdiag): void {
  const src = sink.ref(ln);
  const before = tokens.slice(0, guidIdx);
  const after = tokens.slice(guidIdx + 1);
  if (section === 'namespace') {
    const ns: HnsdiagNamespace = { id: checkGuid(tokens[guidIdx], ln, 'namespace', sink), endpointIds: [], src };
    for (const t of after) if (isGuidLike(t)) ns.endpointIds.push(checkGuid(t, ln, 'endpoint', sink));
    out.namespaces.push(ns);
    return;
  }
  if (section === 'loadbalancer') {
    const lb: HnsdiagLoadBalancer = { id: checkGuid(tokens[guidIdx], ln, 'load balancer', sink), vips: [], dipEndpointIds: [], src };
    for (const t of after) {
      if (isIp(t)) lb.vips.push(t);
      else if (isGuidLike(t)) lb.dipEndpointIds.push(checkGuid(t, ln, 'endpoint', sink));
    }
    if (lb.vips.length === 0) sink.warn(ln, `hnsdiag load balancer ${lb.id} row has no virtual IP`);
    out.loadBalancers.push(lb);
    return;
  }
  const labels = header ?? (section === 'network' ? ['Name', 'ID'] : ['Name', 'ID', 'Virtual Network Name']);
  const idCol = labels.findIndex((l) => l.toLowerCase() === 'id');
  const cells = { ...assign(before, idCol === -1 ? labels.slice(0, 1) : labels.slice(0, idCol)), ...assign(after, idCol === -1 ? [] : labels.slice(idCol + 1)) };
  const extra: Record<string, string> = {};
  let name = '';
  let type: string | undefined;
  let ip: string | undefined;
  let networkName: string | undefined;
  for (const [label, v] of Object.entries(cells)) {
    const l = label.toLowerCase();
    if (l === 'name') name = v;
    else if (l === 'type' || l === 'network type') type = v;
    else if (l.includes('network name') || l === 'network') networkName = v;
    else if (l.replace(/\s/g, '') === 'ipaddress') ip = v;
    else extra[label] = v;
  }
  if (section === 'network') {
    const n: HnsdiagNetwork = { id: checkGuid(tokens[guidIdx], ln, 'network', sink), name, src };
    if (type) n.type = type.toLowerCase();
    if (Object.keys(extra).length > 0) n.extra = extra;
    if (!name) sink.warn(ln, `hnsdiag network ${n.id} row has no name`);
    out.networks.push(n);
  } else {
    const e: HnsdiagEndpoint = { id: checkGuid(tokens[guidIdx], ln, 'endpoint', sink), name, src };
    if (ip) e.ip = ip;
    if (networkName) e.networkName = networkName;
    if (Object.keys(extra).length > 0) e.extra = extra;
    const filled = Object.values(cells).filter((v) => v !== '').length;
    if (filled < labels.length - (idCol === -1 ? 0 : 1)) sink.warn(ln, `hnsdiag endpoint ${e.id} row is missing column(s)`);
    out.endpoints.push(e);
  }
}

function addBlock(b: Block, sink: IssueSink, out: Hnsdiag): void {
  const src = sink.ref(b.line);
  const idTok = tokenize(b.id)[0] ?? '';
  const id = isGuidLike(idTok) ? checkGuid(idTok, b.line, b.kind, sink) : idTok.toLowerCase();
  const get = (...names: string[]): string | undefined => {
    for (const [k, v] of Object.entries(b.props)) {
      const key = k.toLowerCase().replace(/\s/g, '');
      if (names.includes(key) && v !== '') return v;
    }
    return undefined;
  };
  const mapped = new Set(['name', 'ipaddress', 'virtualnetworkname', 'networkname', 'virtualnetwork', 'type', 'virtualips', 'directipids', 'endpointids']);
  const extra: Record<string, string> = {};
  for (const [k, v] of Object.entries(b.props)) if (!mapped.has(k.toLowerCase().replace(/\s/g, ''))) extra[k] = v;
  const guids = (s: string | undefined): string[] => tokenize(s ?? '').filter(isGuidLike).map((t) => checkGuid(t, b.line, 'endpoint', sink));

  if (b.kind === 'network') {
    const n: HnsdiagNetwork = { id, name: get('name') ?? '', src };
    const t = get('type');
    if (t) n.type = t.toLowerCase();
    if (Object.keys(extra).length > 0) n.extra = extra;
    out.networks.push(n);
  } else if (b.kind === 'endpoint') {
    const e: HnsdiagEndpoint = { id, name: get('name') ?? '', src };
    const ip = get('ipaddress');
    if (ip) e.ip = ip;
    const nn = get('virtualnetworkname', 'networkname', 'virtualnetwork');
    if (nn) e.networkName = nn;
    if (Object.keys(extra).length > 0) e.extra = extra;
    out.endpoints.push(e);
  } else if (b.kind === 'namespace') {
    out.namespaces.push({ id, endpointIds: guids(get('endpointids')), src });
  } else {
    out.loadBalancers.push({ id, vips: tokenize(get('virtualips') ?? '').filter(isIp), dipEndpointIds: guids(get('directipids')), src });
  }
}

/** Objects only present as `-d` JSON also appear in the summary lists, pointing at their JSON line. */
function mergeJsonSummaries(out: Hnsdiag, sink: IssueSink): void {
  const ids = (list: { id: string }[]) => new Set(list.map((x) => x.id));
  const seen = { network: ids(out.networks), endpoint: ids(out.endpoints), namespace: ids(out.namespaces), loadbalancer: ids(out.loadBalancers) };
  for (const o of out.jsonObjects) {
    const src = sink.ref(o.line);
    if (o.kind === 'network') {
      const v = o.value;
      if (!v.id || seen.network.has(v.id)) continue;
      seen.network.add(v.id);
      const n: HnsdiagNetwork = { id: v.id, name: v.name, src };
      if (v.type) n.type = v.type;
      out.networks.push(n);
    } else if (o.kind === 'endpoint') {
      const v = o.value;
      if (!v.id || seen.endpoint.has(v.id)) continue;
      seen.endpoint.add(v.id);
      const e: HnsdiagEndpoint = { id: v.id, name: v.name, src };
      if (v.ip) e.ip = v.ip;
      if (v.networkName) e.networkName = v.networkName;
      out.endpoints.push(e);
    } else if (o.kind === 'namespace') {
      const v = o.value;
      if (!v.id || seen.namespace.has(v.id)) continue;
      seen.namespace.add(v.id);
      out.namespaces.push({ id: v.id, endpointIds: v.endpointIds, src });
    } else if (o.kind === 'loadbalancer') {
      const v = o.value;
      if (!v.id || seen.loadbalancer.has(v.id)) continue;
      seen.loadbalancer.add(v.id);
      out.loadBalancers.push({ id: v.id, vips: v.vips, dipEndpointIds: v.endpointIds, src });
    }
  }
}
