// The rows of `route print`, read by splitting at blanks instead of with one regular expression per
// row: a lazy middle column before `\s+…\s*$` is quadratic in a long run of blanks inside the line
// (an 80,000-blank line took 25 s), and a hostile routes.txt has one. Linear in the line.
// The columns are those of the regular expressions this replaces (Windows' route.exe output; the
// gateway may hold blanks in localized consoles: 'Auf Verbindung').

interface Token {
  start: number;
  end: number;
}

function tokens(line: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && isBlankChar(line.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isBlankChar(line.charCodeAt(i))) i++;
    out.push({ start, end: i });
  }
  return out;
}

/** The text of token `i` of `line`; '' when the line has no such token. */
function text(line: string, t: readonly Token[], i: number): string {
  const x = t[i];
  return x ? line.slice(x.start, x.end) : '';
}

/** The text from token `from` to token `to` of `line`, blanks between included; '' when either is missing. */
function span(line: string, t: readonly Token[], from: number, to: number): string {
  const a = t[from];
  const b = t[to];
  return a && b ? line.slice(a.start, b.end) : '';
}

/** What `\s` matches among the characters a console prints. */
function isBlankChar(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 || c === 0xa0 || c === 0x3000 || c === 0xfeff || (c >= 0x2000 && c <= 0x200a) || c === 0x1680 || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f;
}

const IP_SHAPE = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const DIGITS = /^\d+$/;

/** A destination of IPv6's table: hex digits, dots and at least one colon, then an optional /prefix. */
function isV6Destination(t: string): boolean {
  const slash = t.indexOf('/');
  const addr = slash >= 0 ? t.slice(0, slash) : t;
  if (slash >= 0 && !DIGITS.test(t.slice(slash + 1))) return false;
  let colon = false;
  for (let i = 0; i < addr.length; i++) {
    const c = addr.charCodeAt(i);
    if (c === 58) colon = true;
    else if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102) || c === 46)) return false;
  }
  return colon;
}

export interface V4Row {
  destination: string;
  netmask: string;
  gateway: string;
  /** The interface address: absent in the persistent routes' table. */
  iface?: string;
  metric: string;
}

/** `dest mask gateway iface metric` (active routes). */
export function v4ActiveRow(line: string): V4Row | undefined {
  const t = tokens(line);
  const k = t.length;
  if (k < 5) return undefined;
  const s = (i: number) => text(line, t, i);
  if (!IP_SHAPE.test(s(0)) || !IP_SHAPE.test(s(1)) || !IP_SHAPE.test(s(k - 2)) || !DIGITS.test(s(k - 1))) return undefined;
  return { destination: s(0), netmask: s(1), gateway: span(line, t, 2, k - 3), iface: s(k - 2), metric: s(k - 1) };
}

/** `dest mask gateway metric` (persistent routes: no interface column). */
export function v4PersistentRow(line: string): V4Row | undefined {
  const t = tokens(line);
  const k = t.length;
  if (k < 4) return undefined;
  const s = (i: number) => text(line, t, i);
  if (!IP_SHAPE.test(s(0)) || !IP_SHAPE.test(s(1))) return undefined;
  return { destination: s(0), netmask: s(1), gateway: span(line, t, 2, k - 2), metric: s(k - 1) };
}

export interface V6Row {
  ifIndex: string;
  metric: string;
  destination: string;
  /** Absent when the row wrapped and the gateway is on the next line. */
  gateway?: string;
}

/** `if metric destination [gateway]` (IPv6 tables). */
export function v6Row(line: string): V6Row | undefined {
  const t = tokens(line);
  const k = t.length;
  if (k < 3) return undefined;
  const s = (i: number) => text(line, t, i);
  if (!DIGITS.test(s(0)) || !DIGITS.test(s(1)) || !isV6Destination(s(2))) return undefined;
  return { ifIndex: s(0), metric: s(1), destination: s(2), ...(k > 3 ? { gateway: span(line, t, 3, k - 1) } : {}) };
}
