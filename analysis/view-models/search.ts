// Search over everything a person types into Ctrl+K: IPs, MACs (any separator), GUIDs, names,
// VIP:port, and — straight in the VFP dump's bytes, so it works on a 900 MB file without parsing
// it — rule names and anything a rule mentions (an IP in its conditions or DIP ranges).
import type { NodeModel } from '../../parsers/model/types.ts';
import type { ByteSource } from '../../parsers/vfp/byte-source.ts';
import type { ObjectRef, SearchHit } from './types.ts';
import { plural, protoName, shortGuid } from './format.ts';
import { k8sNames } from '../k8s/index.ts';

interface Entry {
  ref: ObjectRef;
  /** Lower-case searchable strings. */
  keys: string[];
  /** Shown for the hit. */
  text: string;
  context: string;
}

export interface SearchIndex {
  entries: Entry[];
}

const macKeys = (mac?: string) => (mac ? [mac.toLowerCase(), mac.toLowerCase().replace(/-/g, ':'), mac.toLowerCase().replace(/-/g, '')] : []);

export function buildSearchIndex(m: NodeModel): SearchIndex {
  const entries: Entry[] = [];
  const join = new Map(m.joins.endpoints.map((j) => [j.endpointId, j]));
  const names = k8sNames(m);
  for (const e of m.endpoints ?? []) {
    const j = join.get(e.id);
    const pod = names.podLabel(e.ip);
    entries.push({
      ref: { type: 'endpoint', id: e.id },
      keys: [e.ip, e.ipv6, e.id, e.name, e.portName, j?.portKey, j?.adapterName, e.providerAddress, pod, pod?.split('/')[1]].filter((x): x is string => !!x).map((x) => x.toLowerCase()).concat(macKeys(e.mac)),
      text: `${e.ip ?? '(no IP)'} ${pod ?? e.name}`,
      context: `${e.isRemote ? 'remote' : 'local'} endpoint ${shortGuid(e.id)}`,
    });
  }
  for (const lb of m.loadBalancers ?? []) {
    const vipPorts = lb.vips.flatMap((v) => lb.ports.map((p) => `${v}:${p.externalPort}`));
    const svc = names.lbLabel(lb);
    entries.push({
      ref: { type: 'loadbalancer', id: lb.id },
      keys: [...lb.vips, ...vipPorts, lb.id, lb.sourceVip ?? '', svc ?? '', svc?.split('/')[1] ?? ''].filter(Boolean).map((x) => x.toLowerCase()),
      text: lb.vips.flatMap((v) => (lb.ports.length ? lb.ports.map((p) => `${v}:${p.externalPort}/${protoName(p.protocol)}`) : [v])).join(', ') || lb.id,
      context: `${svc ? `service ${svc}, ` : ''}load balancer ${shortGuid(lb.id)} → ${plural(lb.endpointIds.length, 'DIP')}`,
    });
  }
  for (const n of m.networks ?? []) {
    entries.push({
      ref: { type: 'network', id: n.id },
      keys: [n.id, n.name, n.type, ...n.subnets.map((s) => s.prefix), n.managementIp ?? ''].filter(Boolean).map((x) => x.toLowerCase()),
      text: `${n.name} (${n.type})`,
      context: `HNS network ${shortGuid(n.id)}`,
    });
  }
  for (const p of m.ports ?? []) {
    entries.push({
      ref: { type: 'port', id: p.key },
      keys: [p.key, p.friendlyName ?? ''].filter(Boolean).map((x) => x.toLowerCase()).concat(macKeys(p.mac)),
      text: `${p.name}${p.friendlyName ? ` (${p.friendlyName})` : ''}`,
      context: `VFP port, ${p.role}${p.policy ? `, ${plural(p.policy.rules, 'rule')}` : ''}`,
    });
  }
  for (const c of m.ip?.compartments ?? []) {
    entries.push({ ref: { type: 'compartment', id: String(c.id) }, keys: [`compartment ${c.id}`], text: `Compartment ${c.id}`, context: plural(c.adapters.length, 'adapter') });
    for (const a of c.adapters) {
      entries.push({
        ref: { type: 'adapter', id: `${c.id}/${a.name}` },
        keys: [a.name, a.description ?? '', ...a.ipv4.map((x) => x.address), ...a.ipv6.map((x) => x.address)].filter(Boolean).map((x) => x.toLowerCase()).concat(macKeys(a.mac)),
        text: `${a.name} ${a.ipv4.map((x) => x.address).join(', ')}`,
        context: `adapter in compartment ${c.id}`,
      });
    }
  }
  return { entries };
}

export function searchObjects(index: SearchIndex, query: string, limit = 50): SearchHit[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const qMac = q.replace(/[:.]/g, '-');
  const hits: SearchHit[] = [];
  for (const e of index.entries) {
    let best = 0;
    for (const k of e.keys) {
      const s = k === q || k === qMac ? 100 : k.startsWith(q) ? 60 : k.includes(q) ? 30 : 0;
      if (s > best) best = s;
    }
    if (best) hits.push({ ref: e.ref, text: e.text, context: e.context, score: best + (e.ref.type === 'endpoint' ? 5 : 0) });
  }
  hits.sort((a, b) => b.score - a.score || a.text.localeCompare(b.text));
  return hits.slice(0, limit);
}

export interface RuleHitLocation {
  file: number;
  port: number;
  portName: string;
  /** Byte offset of the RULE line of the rule that contains the match. */
  ruleByte: number;
  ruleName: string;
}

/**
 * Finds rules whose text contains `query` (case-insensitive ASCII) in one VFP dump, returning the
 * enclosing rule of each match, at most `limit`, one hit per rule.
 */
export function searchRuleBytes(src: Uint8Array | ByteSource, ports: { name: string; byteStart: number; byteEnd: number }[], query: string, limit: number, fileIdx = 0): RuleHitLocation[] {
  const whole = src instanceof Uint8Array ? src : src.whole;
  if (whole) return searchRuleSlice(whole, 0, 0, ports, query, limit, fileIdx);
  // A dump read on demand (services/bundle/file-bytes.ts): port by port, in slices of at most 64 MiB,
  // each with 1 MiB before it so a match finds the RULE line above it.
  const source = src as ByteSource;
  const out: RuleHitLocation[] = [];
  for (const p of ports) {
    for (let from = p.byteStart; from < p.byteEnd && out.length < limit; from += SLICE_BYTES) {
      const base = Math.max(p.byteStart, from - SLICE_BACK);
      const bytes = source.read(base, Math.min(p.byteEnd, from + SLICE_BYTES) - base);
      for (const h of searchRuleSlice(bytes, base, from - base, ports, query, limit - out.length, fileIdx)) if (!out.some((o) => o.ruleByte === h.ruleByte)) out.push(h);
    }
    if (out.length >= limit) break;
  }
  return out;
}

const SLICE_BYTES = 64 * 1024 * 1024;
const SLICE_BACK = 1024 * 1024;

/** searchRuleBytes over `bytes`, the dump's bytes from offset `base`; matches before `skip` are the previous slice's. */
function searchRuleSlice(bytes: Uint8Array, base: number, skip: number, ports: { name: string; byteStart: number; byteEnd: number }[], query: string, limit: number, fileIdx: number): RuleHitLocation[] {
  const q = query.trim();
  if (q.length < 3 || q.length > 128 || /[^\x20-\x7e]/.test(q)) return [];
  const lower = new Uint8Array(q.length);
  for (let i = 0; i < q.length; i++) lower[i] = toLower(q.charCodeAt(i));
  const out: RuleHitLocation[] = [];
  const seen = new Set<number>();
  const first = lower[0];
  if (first === undefined) return [];
  const firstUpper = first >= 97 && first <= 122 ? first - 32 : first;
  let a = bytes.indexOf(first, skip);
  let b = firstUpper === first ? -1 : bytes.indexOf(firstUpper, skip);
  while (out.length < limit) {
    let pos: number;
    if (a < 0 && b < 0) break;
    if (b < 0 || (a >= 0 && a < b)) {
      pos = a;
      a = bytes.indexOf(first, a + 1);
    } else {
      pos = b;
      b = bytes.indexOf(firstUpper, b + 1);
    }
    if (!matchesAt(bytes, pos, lower)) continue;
    const local = enclosingRule(bytes, pos);
    if (local < 0) continue;
    const rule = base + local;
    if (seen.has(rule)) continue;
    seen.add(rule);
    const port = findPort(ports, rule);
    const portName = ports[port]?.name;
    if (portName === undefined) continue;
    out.push({ file: fileIdx, port, portName, ruleByte: rule, ruleName: ruleNameAt(bytes, local) });
  }
  return out;
}

const toLower = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);

function matchesAt(bytes: Uint8Array, pos: number, lower: Uint8Array): boolean {
  if (pos + lower.length > bytes.length) return false;
  for (let i = 0; i < lower.length; i++) if (toLower(bytes[pos + i] ?? -1) !== lower[i]) return false;
  return true;
}

/** Start of the line of the nearest `RULE :` at or above `pos`, stopping at a LAYER/GROUP or a port boundary. */
function enclosingRule(bytes: Uint8Array, pos: number): number {
  let lineStart = bytes.lastIndexOf(10, pos) + 1;
  for (let guard = 0; guard < 400; guard++) {
    let i = lineStart;
    while (bytes[i] === 32 || bytes[i] === 9) i++;
    if (bytes[i] === 82 && bytes[i + 1] === 85 && bytes[i + 2] === 76 && bytes[i + 3] === 69) return lineStart; // RULE
    if ((bytes[i] === 76 && bytes[i + 1] === 65 && bytes[i + 2] === 89) || (bytes[i] === 71 && bytes[i + 1] === 82 && bytes[i + 2] === 79 && bytes[i + 3] === 85) || (bytes[i] === 80 && bytes[i + 1] === 111 && bytes[i + 2] === 108)) return -1; // LAYER, GROUP, Policy
    if (lineStart === 0) return -1;
    lineStart = bytes.lastIndexOf(10, lineStart - 2) + 1;
  }
  return -1;
}

function findPort(ports: { byteStart: number; byteEnd: number }[], off: number): number {
  let lo = 0;
  let hi = ports.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = ports[mid];
    if (!p) return -1;
    if (off < p.byteStart) hi = mid - 1;
    else if (off >= p.byteEnd) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Lines after `RULE :` searched for the rule's friendly name (it comes before the conditions). */
const NAME_LINES = 12;

/**
 * The name a rule is known by, as the rule parser names it (parsers/vfp: the friendly name, else the id
 * after `RULE :`): `Friendly name :` in the lines of the rule before its conditions, else the id.
 */
export function ruleNameAt(src: Uint8Array | ByteSource, lineStart: number): string {
  let bytes: Uint8Array;
  if (src instanceof Uint8Array) bytes = src;
  else if (src.whole) bytes = src.whole;
  else {
    // Read on demand: enough bytes for the RULE line and the NAME_LINES after it.
    let len = 8192;
    for (;;) {
      const got = src.read(lineStart, len);
      let lfs = 0;
      for (let i = got.indexOf(10); i >= 0 && lfs <= NAME_LINES; i = got.indexOf(10, i + 1)) lfs++;
      if (lfs > NAME_LINES || lineStart + got.length >= src.size) {
        bytes = got;
        break;
      }
      len *= 2;
    }
    lineStart = 0;
  }
  const dec = new TextDecoder('latin1');
  const lineAt = (start: number) => {
    const end = bytes.indexOf(10, start);
    return { text: dec.decode(bytes.subarray(start, end < 0 ? bytes.length : end)), next: end < 0 ? -1 : end + 1 };
  };
  const first = lineAt(lineStart);
  const id = first.text.replace(/^\s*RULE\s*:\s*/i, '').trim();
  let pos = first.next;
  for (let i = 0; i < NAME_LINES && pos >= 0 && pos < bytes.length; i++) {
    const l = lineAt(pos);
    if (/^\s*(RULE|GROUP|LAYER|Policy for port)\b|^\s*Conditions\s*:/i.test(l.text)) break;
    // CRLF dumps: `.` stops at the `\r`, so take everything but line ends.
    const m = /^\s*Friendly\s+name\s*:\s*([^\r\n]*)/i.exec(l.text);
    const name = m?.[1]?.trim();
    if (name) return name;
    pos = l.next;
  }
  return id || '(a rule without a name)';
}
