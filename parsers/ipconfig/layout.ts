// ipconfig structure is recognised by layout, not by words, so localized output and the flattened
// copies pasted into tickets (indentation lost, `-----` banners) still read: an adapter header is a
// line at column 0 that ends in ':' without a dotted leader; a key/value line has a dotted leader
// before ':' or a ': ' after the label; anything else after a key continues that key's value.

import { isBannerLine } from '../ps/lines.ts';
import { lookupLabel, normalizeKind, ROMANCE_KINDS } from './labels.ts';

export interface KeyValue {
  label: string;
  value: string;
}

const LEADER_RE = /^\s*(\S.*?)[ .]*\.\s*:(?=\s|$)\s?(.*)$/;
const PLAIN_RE = /^\s*([^:]*?[^\s:])\s*:(?=\s|$)\s?(.*)$/;

/** Labels are short: a line whose first `: ` comes later is a value, not `label : value`. */
const MAX_LABEL = 512;

/** Index of the first ':' followed by a blank or the end of the line, or -1. */
function labelColon(line: string): number {
  for (let i = line.indexOf(':'); i >= 0; i = line.indexOf(':', i + 1)) {
    if (i + 1 >= line.length || /\s/.test(line.charAt(i + 1))) return i;
  }
  return -1;
}

export function splitKeyValue(line: string): KeyValue | null {
  // Both patterns are quadratic in a long line (a lazy label before a run of blanks or dots); they
  // are tried only where a label can end.
  const colon = labelColon(line);
  if (colon < 0 || colon > MAX_LABEL) return null;
  const m = LEADER_RE.exec(line) ?? PLAIN_RE.exec(line);
  if (!m) return null;
  const [, labelText = '', value = ''] = m;
  const label = labelText.replace(/[\s.]+$/, '').trim();
  // Continuation values are addresses; a "label" that is only hex/digits/dots is one of those.
  if (!/\p{L}/u.test(label) || /^[0-9a-f.:%]+$/i.test(label)) return null;
  return { label, value: value.trim() };
}

function hasLeader(line: string): boolean {
  return /\.\s*\.|\.\s*:\s*$/.test(line);
}

const ADAPTER_WORD_RE = /(adapter\b|^carte\s|^adaptador\s|^scheda\s|适配器\s|アダプター\s)/i;

/**
 * Adapter header such as `Ethernet adapter vEthernet (nat):`, `Ethernet-Adapter vEthernet (nat):`,
 * `Carte Ethernet vEthernet (nat) :`, or, in an unknown language, a column-0 line ending in ':'
 * that stands between blank lines or banners.
 */
export function isAdapterHeader(lines: readonly string[], i: number): boolean {
  const line = lines[i];
  if (line === undefined || /^\s/.test(line)) return false;
  const t = line.trimEnd();
  if (!t.endsWith(':') || t.length < 2 || hasLeader(t)) return false;
  const label = t.slice(0, -1).trim();
  if (label === '' || lookupLabel(label) !== null) return false;
  if (ADAPTER_WORD_RE.test(label)) return true;
  // The first and the last line have quiet (none) before and after them.
  const prev = lines[i - 1] ?? '';
  const next = lines[i + 1] ?? '';
  const quietAround = (s: string) => s.trim() === '' || isBannerLine(s);
  return quietAround(prev) && quietAround(next);
}

export function parseAdapterHeader(line: string): { kind: string; name: string; header: string } {
  const header = line.trim().replace(/\s*:$/, '');
  const en = /^(.*?)[\s-]*adapter\s+(.+)$/i.exec(header);
  if (en) {
    const [, kind, name = ''] = en;
    return { kind: normalizeKind(kind || 'Unknown'), name: name.trim(), header };
  }
  const romance = /^(?:carte|adaptador(?:\s+de)?|scheda)\s+(.+)$/i.exec(header);
  if (romance) {
    const [, rest = ''] = romance;
    const lower = rest.toLowerCase();
    for (const k of ROMANCE_KINDS) {
      if (lower.startsWith(k + ' ')) return { kind: normalizeKind(k), name: rest.slice(k.length).trim(), header };
    }
    const sp = rest.indexOf(' ');
    return sp > 0
      ? { kind: normalizeKind(rest.slice(0, sp)), name: rest.slice(sp + 1).trim(), header }
      : { kind: '', name: rest, header };
  }
  // zh `以太网适配器 vEthernet (nat)`, ja `イーサネット アダプター vEthernet (nat)`: kind, the word, the name.
  const cjk = /^(.*?)\s*(?:适配器|アダプター)\s+(.+)$/.exec(header);
  if (cjk) {
    const [, kind, name = ''] = cjk;
    return { kind: normalizeKind(kind || 'Unknown'), name: name.trim(), header };
  }
  const v = header.indexOf('vEthernet');
  if (v > 0) return { kind: normalizeKind(header.slice(0, v).replace(/[\s-]+$/, '')), name: header.slice(v), header };
  return { kind: '', name: header, header };
}

const ENGLISH_TITLE = /^\s*(.*?\D)?(\d{1,9})\s*(?:\(([^)]*)\))?\s*$/;
const LOCAL_TITLE = /^\s*(\D{1,80}?)\s*(\d{1,9})\s*\D{1,80}?\s*(?:[(（]([^)）]{0,40})[)）])?\s*$/;

/** What ENGLISH_TITLE needs: the line ends, before its blanks, in a digit or `)`. */
export function endsInNumberOrMarker(line: string): boolean {
  const t = line.trimEnd();
  const c = t.charCodeAt(t.length - 1);
  return (c >= 48 && c <= 57) || c === 41;
}

/**
 * What LOCAL_TITLE needs (never false where it matches): its number is the line's first run of
 * digits (what comes before it holds none), at most 9 long; any digit after it lies inside the
 * parenthesised marker the line ends with.
 */
export function mayHoldLocalTitle(line: string): boolean {
  let i = 0;
  while (i < line.length && !isDigit(line.charCodeAt(i))) i++;
  if (i === line.length) return false;
  let j = i;
  while (j < line.length && isDigit(line.charCodeAt(j))) j++;
  if (j - i > 9) return false;
  for (let k = j; k < line.length; k++) if (isDigit(line.charCodeAt(k))) return /[)）]\s*$/.test(line);
  return true;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * `Network Information for Compartment 3 (ACTIVE)` or, in another language, a column-0 line without
 * ':' that ends in a number (+ optional marker) and touches a banner line.
 */
export function compartmentTitle(lines: readonly string[], i: number): { id: number; marker?: string } | null {
  const line = lines[i];
  // A title is a short line; the pattern below is quadratic in a long one (a hostile ip.txt has them).
  if (line === undefined || line.length > 256 || line.includes(':') || isBannerLine(line)) return null;
  // zh and ja put the number inside the title (`隔离舱 1 的网络信息`, `コンパートメント 1 のネットワーク情報`),
  // with the marker in ASCII or full-width parentheses.
  // Both patterns backtrack over every line without a colon (a Get-NetIPInterface row, a DNS suffix
  // list line: thousands on a node with many pods); the checks before each decide most lines at once.
  const m = (endsInNumberOrMarker(line) ? ENGLISH_TITLE.exec(line) : null) ?? (mayHoldLocalTitle(line) ? LOCAL_TITLE.exec(line) : null);
  if (!m) return null;
  const english = /compartment\s+\d+/i.test(line);
  const nearBanner = (k: number) => {
    for (let d = k; d >= 0 && d < lines.length && Math.abs(d - i) <= 2; d += k < i ? -1 : 1) {
      if (isBannerLine(lines[d])) return true;
      if ((lines[d] ?? '').trim() !== '') return false;
    }
    return false;
  };
  if (!english && !(nearBanner(i - 1) || nearBanner(i + 1))) return null;
  if (!english && !/\p{L}/u.test(m[1] ?? '')) return null;
  return { id: Number(m[2]), marker: m[3]?.trim() || undefined };
}

/** `Windows IP Configuration` and its translations: the title ipconfig prints first. */
export function isIpconfigTitle(line: string): boolean {
  return /^\s*(windows[- ]ip[- ](configuration|konfiguration)|configuration ip de windows|configuración ip de windows|windows ip 配置|windows ip 構成|windows ip 設定)\s*$/i.test(line);
}

/** `10.244.4.7(Preferred)` → address + status. */
export function splitStatus(value: string): { address: string; status?: string } {
  const m = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(value);
  if (!m) return { address: value.trim() };
  const [, address = '', status = ''] = m;
  return { address: address.trim(), status: status.trim() };
}
