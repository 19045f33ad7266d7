// THE REPLACED READER, kept as a test oracle: parsers/hnsdiag/parse-hnsdiag.ts before its one-pass rewrite (2026-11-29), so the
// one-pass test can show the rewrite reads every sample and mutation alike. It is not product code. When
// the reader's behaviour changes on purpose, delete this file and its one-pass test (their job is done).
// hnsdiag.txt (`hnsdiag list all -d`) and its relatives (`hnsdiag list endpoints`, AKS's
// `<ts>-hnsdiag-list.txt`, Get-NetView's HNSDiag_all*.txt). Three layouts, by Windows build:
//  - legacy columns: `Networks:` / `Endpoints:` / `Namespaces:` / `LoadBalancers:` sections, each
//    with a header row (columns split by runs of spaces or ` | `), optional `-----` separators;
//  - per-object blocks: `Endpoint         : <guid>` then indented `Key : value` lines;
//  - `-d` JSON: documents starting at column 0, possibly between the lines above.
// A file may combine them; every object keeps the line it came from.

import { IssueSink } from '../../../../parsers/types.ts';
import { COUNT, readInt } from '../../../../parsers/text/numbers.ts';
import type { ParseResult } from '../../../../parsers/types.ts';
import { capIssues, readPsJson } from '../../../../parsers/json/ps-json.ts';
import { normaliseHnsObject } from '../../../../parsers/hns/normalise.ts';
import type { HnsKind } from '../../../../parsers/hns/types.ts';
import type { Hnsdiag, HnsdiagAdapter, HnsdiagEndpoint, HnsdiagJsonObject, HnsdiagLoadBalancer, HnsdiagNamespace, HnsdiagNetwork } from '../../../../parsers/hnsdiag/types.ts';
import { cleanGuid, headerColumns, isGuidLike, isIp, isStrictGuid, tokenize } from '../../../../parsers/hnsdiag/tokens.ts';
import { plural } from '../../../../parsers/text/quantities.ts';

type Section = 'network' | 'endpoint' | 'namespace' | 'loadbalancer' | 'adapter';

const SECTION_HEADER = /^\s*(networks|endpoints|namespaces|load\s?balancers|adapters)\s*:\s*$/i;
// Newer builds frame a listing with a banner: `////////ADAPTERS////////` (research sample
// hnsdiag-list-adapters, microsoft/SDN PR #456).
const SECTION_BANNER = /^\s*\/{3,}\s*(networks|endpoints|namespaces|load\s?balancers|adapters)\s*\/{3,}\s*$/i;
// Values are taken to the line's end and trimmed in code: a lazy value before \s*$ is quadratic in a
// long run of blanks inside it, which a hostile file has.
const BLOCK_START = /^(network|endpoint|namespace|load\s?balancer|adapter)\s*:\s*(\S.*)$/i;
// What an hnsdiag that does not know the object prints instead (corpus hnsdiag-usage, SDN#520).
const USAGE = /^\s*hnsdiag\s+<command>\s+<object>/i;
const NAME_OF_REMOTE = 'Ethernet';
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
  if (w.startsWith('adapter')) return 'adapter';
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

/** The reader as it was before the one-pass rewrite (2026-11-29): the reference the fast one is checked against. */
export function parseHnsdiagReference(text: string, file = 'hnsdiag.txt'): ParseResult<Hnsdiag> {
  const sink = new IssueSink(file);
  const value: Hnsdiag = { layout: 'empty', networks: [], endpoints: [], namespaces: [], loadBalancers: [], adapters: [], jsonObjects: [] };
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

  const wrapped = rejoinWrapped(lines, covered);
  if (wrapped) sink.info(wrapped.first, `${wrapped.rows} hnsdiag row${wrapped.rows > 1 ? 's' : ''} hard-wrapped at ${wrapped.width} columns (a console copy) joined again, from line ${wrapped.first}`);

  let section: Section | null = null;
  let header: string[] | null = null;
  let block: Block | null = null;
  let legacyRows = 0;
  let blocks = 0;
  let unread = 0;
  let firstUnread = 0;
  let lastCommand: string | undefined;
  const lastText = lines.reduce((k, l, idx) => (l.trim() !== '' ? idx + 1 : k), 0);

  const noteUnread = (ln: number): void => {
    if (unread++ === 0) firstUnread = ln;
  };
  const flushBlock = (): void => {
    if (block) addBlock(block, sink, out);
    block = null;
  };

  for (const [i, line] of lines.entries()) {
    const ln = i + 1;
    const el = jsonAt.get(ln);
    if (el) {
      const sec: Section | undefined = block ? (block as Block).kind : (section ?? undefined);
      const fallback: HnsKind | undefined = sec === 'adapter' ? undefined : sec;
      const items = Array.isArray(el.value) ? el.value : [el.value];
      for (const item of items) out.jsonObjects.push({ ...normaliseHnsObject(item, el.line, sink, fallback), line: el.line } as HnsdiagJsonObject);
    }
    if (covered[ln]) continue;
    const trimmed = line.trim();
    if (trimmed === '') {
      continue;
    }
    if (USAGE.test(line)) {
      out.usage = { line: ln, command: lastCommand };
      break;
    }
    const banner = SECTION_BANNER.exec(line);
    if (banner) {
      flushBlock();
      section = sectionOf(banner[1] ?? '');
      header = null;
      continue;
    }
    if (/^hnsdiag(?:\.exe)?\s+list\s+\w+/i.test(trimmed)) {
      lastCommand = trimmed;
      continue;
    }
    const prompt = PROMPT.exec(line);
    if (prompt) {
      const [, command = ''] = prompt;
      if (/hnsdiag/i.test(command)) lastCommand = command.trim();
      flushBlock();
      const listed = /hnsdiag(?:\.exe)?\s+list\s+(\w+)/i.exec(command)?.[1];
      section = listed !== undefined && !/^all$/i.test(listed) ? sectionOf(listed) : null;
      header = null;
      continue;
    }
    const sec = SECTION_HEADER.exec(line);
    if (sec) {
      flushBlock();
      section = sectionOf(sec[1] ?? '');
      header = null;
      continue;
    }
    const bs = BLOCK_START.exec(line);
    if (bs) {
      flushBlock();
      const [, kind = '', id = ''] = bs;
      block = { kind: sectionOf(kind), id: id.trimEnd(), line: ln, props: {} };
      blocks++;
      continue;
    }
    if (block) {
      const colon = line.indexOf(':');
      const kv = colon > 0 && colon <= MAX_KEY + (line.length - line.trimStart().length) ? KEY_VALUE.exec(line) : null;
      if (kv) {
        const [, key = '', value = ''] = kv;
        (block as Block).props[key] = value.trimEnd();
        continue;
      }
      flushBlock();
    }
    if (SEPARATOR.test(line)) continue;
    // Leftover JSON punctuation (an element the JSON reader could not use) is not a row.
    if (/^["{}[\]]/.test(trimmed)) {
      noteUnread(ln);
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
      if (ln === lastText && /^[A-Za-z]+$/.test(trimmed) && /^(networks|endpoints|namespaces|loadbalancers|adapters)/i.test('networks endpoints namespaces loadbalancers adapters'.split(' ').find((w) => w.startsWith(trimmed.toLowerCase())) ?? '')) {
        sink.info(ln, `the text ends inside a section title ("${trimmed}"): what followed is not in it`);
      } else if (section && header) sink.warn(ln, `hnsdiag ${section} row has no ID: ${JSON.stringify(trimmed.slice(0, 120))}`);
      else noteUnread(ln);
      continue;
    }
    if (!section) {
      noteUnread(ln);
      continue;
    }
    legacyRows++;
    addRow(section, header, tokens, guidIdx, ln, sink, out);
  }
  flushBlock();

  mergeJsonSummaries(out, sink);
  dedupe(out, sink);
  inferRemote(out, sink);
  const kinds = [legacyRows > 0, blocks > 0, json.value.elements.length > 0].filter(Boolean).length;
  if (out.usage && kinds === 0) {
    out.layout = 'empty';
  }
  if (kinds === 0) out.layout = 'empty';
  else if (kinds > 1) out.layout = 'mixed';
  else out.layout = legacyRows > 0 ? 'legacy' : blocks > 0 ? 'blocks' : 'json';

  if (out.usage) {
    sink.warn(out.usage.line, `this is hnsdiag's usage text, not a listing: the hnsdiag of this Windows build does not know ${out.usage.command ? `"${out.usage.command}"` : 'the command it was given'} (older builds know only networks, endpoints, namespaces and load balancers)`);
  } else if (kinds === 0) {
    if (text.trim() === '') sink.info(0, 'file is empty');
    else sink.warn(1, 'no hnsdiag objects found (not hnsdiag output, or a layout this reader does not know)');
  } else if (unread > 0) {
    const t = (lines[firstUnread - 1] ?? '').trim();
    sink.info(firstUnread, `${unread} line${unread > 1 ? 's' : ''} outside any hnsdiag section not read, from ${JSON.stringify(t.length > 80 ? t.slice(0, 80) + '…' : t)}`);
  }
}

// Console widths hnsdiag is commonly copied from (conhost's 80 and 120, a copy that loses the last
// column: 79, 119), for a file where a single row reached the width.
const CONSOLE_WIDTHS = new Set([79, 80, 99, 100, 119, 120]);

/**
 * A console cuts a row longer than its width (a `cid-<64 hex>` endpoint name and its GUID, a load
 * balancer with many backends) and continues it on the next line. The width is the longest line's,
 * when two lines reach it or it is a common console width; a line of that width is joined with the
 * lines that continue it (not a section title, header, prompt or block line). Line numbers are kept:
 * the row stays on its first line and the lines it absorbed become empty.
 */
function rejoinWrapped(lines: string[], covered: Uint8Array): { rows: number; width: number; first: number } | null {
  let width = 0;
  let atWidth = 0;
  for (const [i, line] of lines.entries()) {
    if (covered[i + 1]) continue;
    const n = line.length;
    if (n > width) {
      width = n;
      atWidth = 1;
    } else if (n === width) atWidth++;
  }
  if (width < 60 || (atWidth < 2 && !CONSOLE_WIDTHS.has(width))) return null;
  const continues = (i: number): boolean => {
    const l = lines[i];
    if (l === undefined || covered[i + 1]) return false;
    // Indented `Key : value` lines belong to a per-object block.
    if (l.trim() === '' || (/^\s/.test(l) && /\s:(?:\s|$)/.test(l))) return false;
    return !(SECTION_HEADER.test(l) || SECTION_BANNER.test(l) || PROMPT.test(l) || BLOCK_START.test(l) || SEPARATOR.test(l) || USAGE.test(l) || sectionFromHeader(headerColumns(l)) !== null && !tokenize(l).some(isGuidLike));
  };
  let rows = 0;
  let first = 0;
  // Not by entries(): a row that absorbs the lines after it moves i past them.
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === undefined || covered[i + 1] || line.length !== width || /\s$/.test(line)) continue;
    // A row (it holds hex: a GUID or a piece of one) or a header row cut at the width.
    if (!tokenize(line).some((t) => /[0-9a-f]{4}/i.test(t)) && sectionFromHeader(headerColumns(line)) === null) continue;
    let j = i;
    let joined = line;
    let piece = line;
    for (let next = lines[j + 1]; next !== undefined && piece.length === width && continues(j + 1) && cutRow(piece, next); next = lines[j + 1]) {
      j++;
      piece = next;
      joined += piece;
      lines[j] = '';
    }
    if (j === i) continue;
    lines[i] = joined;
    if (rows++ === 0) first = i + 1;
    i = j;
  }
  return rows ? { rows, width, first } : null;
}

/**
 * Whether `next` continues `line` (which reached the console width) rather than being a row of its
 * own: read apart, one of them would be damaged (no GUID, a GUID or address cut in two), or `next`
 * lacks the ` | ` columns `line` has (more backends of a load balancer).
 */
function cutRow(line: string, next: string): boolean {
  const a = tokenize(line);
  const b = tokenize(next);
  const last = a.at(-1);
  const [head] = b;
  if (last === undefined || head === undefined) return false;
  if (!a.some(isStrictGuid) || !b.some(isGuidLike)) return true;
  if ((isGuidLike(last) && !isStrictGuid(last)) || (isGuidLike(head) && !isStrictGuid(head))) return true;
  if (/[0-9a-f.-]$/i.test(line) && /^[0-9a-f.-]/i.test(next) && (isStrictGuid(last + head) || isIp(last + head))) return true;
  return line.includes('|') && !next.includes('|');
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
  const [first, ...singles] = labels;
  if (first === undefined) return out;
  if (tokens.length === 0) return out;
  const rest = tokens.slice();
  const tail: string[] = [];
  for (let k = singles.length - 1; k >= 0 && rest.length > 1; k--) tail.unshift(rest.pop()!);
  out[first] = rest.join(' ');
  // The tail's tokens go to the last labels, one each.
  const offset = singles.length - tail.length;
  tail.forEach((t, k) => {
    const label = singles[offset + k];
    if (label !== undefined) out[label] = t;
  });
  return out;
}

function addRow(section: Section, header: string[] | null, tokens: string[], guidIdx: number, ln: number, sink: IssueSink, out: Hnsdiag): void {
  const id = tokens[guidIdx];
  if (id === undefined) return; // guidIdx is the index of the row's GUID token
  const src = sink.ref(ln);
  const before = tokens.slice(0, guidIdx);
  const after = tokens.slice(guidIdx + 1);
  if (section === 'namespace') {
    const ns: HnsdiagNamespace = { id: checkGuid(id, ln, 'namespace', sink), endpointIds: [], src };
    for (const t of after) if (isGuidLike(t)) ns.endpointIds.push(checkGuid(t, ln, 'endpoint', sink));
    out.namespaces.push(ns);
    return;
  }
  if (section === 'loadbalancer') {
    const lb: HnsdiagLoadBalancer = { id: checkGuid(id, ln, 'load balancer', sink), vips: [], dipEndpointIds: [], src };
    for (const t of after) {
      if (isIp(t)) lb.vips.push(t);
      else if (isGuidLike(t)) lb.dipEndpointIds.push(checkGuid(t, ln, 'endpoint', sink));
    }
    // kube-proxy's NodePort load balancers have no frontend VIP (research sample
    // hnsdiag-list-loadbalancers-flannel): an empty column is expected, not damage.
    if (lb.vips.length === 0) sink.info(ln, `hnsdiag load balancer ${lb.id} has no virtual IP (a NodePort load balancer, or a VIP not printed)`);
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
    const n: HnsdiagNetwork = { id: checkGuid(id, ln, 'network', sink), name, src };
    if (type) n.type = type.toLowerCase();
    if (Object.keys(extra).length > 0) n.extra = extra;
    if (!name) sink.warn(ln, `hnsdiag network ${n.id} row has no name`);
    out.networks.push(n);
  } else {
    const e: HnsdiagEndpoint = { id: checkGuid(id, ln, 'endpoint', sink), name, src };
    if (ip) e.ip = ip;
    if (networkName) e.networkName = networkName;
    if (Object.keys(extra).length > 0) e.extra = extra;
    const filled = Object.values(cells).filter((v) => v !== '').length;
    const missing = labels.length - (idCol === -1 ? 0 : 1) - filled;
    if (missing > 0) sink.warn(ln, `hnsdiag endpoint ${e.id} row is missing ${plural(missing, 'column')}`);
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
    // The value may carry a paster's note after the address (`10.42.213.221 ### pod IP`, corpus
    // hnsdiag-list-endpoints-selectstring): the address is the first token.
    const ipText = get('ipaddress');
    const ip = ipText ? (tokenize(ipText).find(isIp) ?? ipText) : undefined;
    if (ip) e.ip = ip;
    if (ipText && ip !== ipText) sink.info(b.line, `endpoint ${id}: text after its IP address not read (${JSON.stringify(ipText.slice(ip!.length).trim().slice(0, 60))})`);
    const nn = get('virtualnetworkname', 'networkname', 'virtualnetwork');
    if (nn) e.networkName = nn;
    if (Object.keys(extra).length > 0) e.extra = extra;
    out.endpoints.push(e);
  } else if (b.kind === 'adapter') {
    const a: HnsdiagAdapter = { id, name: get('name') ?? '', src };
    const d = get('description');
    if (d) a.description = d;
    const idx = get('index');
    const index = idx ? readInt(idx, COUNT).value : undefined;
    if (index !== undefined) a.index = index;
    const luid = get('luid');
    if (luid) a.luid = luid;
    const t = get('type');
    if (t) a.type = t.toLowerCase();
    const c = get('compartment', 'compartmentid');
    const compartment = c ? readInt(c, COUNT).value : undefined;
    if (compartment !== undefined) a.compartment = compartment;
    const rest = Object.fromEntries(Object.entries(b.props).filter(([k]) => !['name', 'description', 'index', 'luid', 'type', 'compartment', 'compartmentid'].includes(k.toLowerCase().replace(/\s/g, ''))));
    if (Object.keys(rest).length) a.extra = rest;
    out.adapters.push(a);
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

/** The same object listed twice (two runs pasted back to back) is one object. */
function dedupe(out: Hnsdiag, sink: IssueSink): void {
  const lists: [string, { id: string; src: { line: number } }[]][] = [['network', out.networks], ['endpoint', out.endpoints], ['namespace', out.namespaces], ['load balancer', out.loadBalancers], ['adapter', out.adapters]];
  for (const [what, list] of lists) {
    const seen = new Set<string>();
    let again = 0;
    let firstAgain = 0;
    // Compacted in place, in one pass (a splice per repeat was quadratic in the repeats).
    let kept = 0;
    for (const item of list) {
      const key = item.id.toLowerCase();
      if (key === '' || !seen.has(key)) {
        seen.add(key);
        list[kept++] = item;
        continue;
      }
      if (!again) firstAgain = item.src.line;
      again++;
    }
    list.length = kept;
    if (again) sink.info(firstAgain, `${again} ${what}${again > 1 ? 's' : ''} listed again (the output appears twice from line ${firstAgain}); each is counted once`);
  }
}

/** Endpoints a listing names "Ethernet" are kube-proxy's remote endpoints (see HnsdiagEndpoint). */
function inferRemote(out: Hnsdiag, sink: IssueSink): void {
  const json = new Set(out.jsonObjects.filter((o) => o.kind === 'endpoint').map((o) => (o.value as { id: string }).id));
  const hits = out.endpoints.filter((e) => e.name === NAME_OF_REMOTE && !json.has(e.id));
  for (const e of hits) e.remoteInferred = 'named "Ethernet" like the remote endpoints kube-proxy creates for pods on other nodes; the listing does not say';
  const [first] = hits;
  if (first) sink.info(first.src.line, `${hits.length} endpoint${hits.length > 1 ? 's' : ''} named "Ethernet" taken as remote (kube-proxy names the endpoints it creates for pods on other nodes so; inferred, hnsdiag's listing does not say)`);
}
