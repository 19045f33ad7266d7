// PowerShell's text rendering of a nested value in Format-List / Format-Table output, back into
// data: `{a, b}` is a collection, `{}` an empty one, `@{k=v; k2=v2}` an object (PSCustomObject or
// hashtable), `{@{…}, @{…}}` a collection of objects. Values nested one level deeper are printed as
// their type name (`System.Object[]`) or as an empty value (`Health=;`): those are kept as the text
// PowerShell printed, so the HNS readers report them as cut (see parsers/hns/access.ts).
//
// Example (Get-HnsNetwork, kubernetes#94924 in the corpus):
//   Policies : {@{Type=HostRoute}, @{DestinationPrefix=10.244.0.0/24; IsolationId=4096; Type=RemoteSubnetRoute}}

export type PsValue = string | PsValue[] | { [k: string]: PsValue };

export interface PsValueRead {
  value: PsValue;
  /** The text ended before a brace closed (a cut paste): what came before was kept. */
  cut: boolean;
}

/** Splits `s` at top-level occurrences of `sep` (outside `{…}`), trimming the pieces. */
function splitTop(s: string, sep: string): { parts: string[]; unbalanced: boolean } {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0 && s.startsWith(sep, i)) {
      parts.push(s.slice(from, i).trim());
      from = i + sep.length;
      i += sep.length - 1;
    }
  }
  parts.push(s.slice(from).trim());
  return { parts, unbalanced: depth !== 0 };
}

/** Index of the `}` that closes the `{` at `open`, or -1 when the text ends first. */
function closing(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** PowerShell's rendering nests a level or two; deeper text is kept as text (hostile input cannot recurse). */
const MAX_DEPTH = 16;

function readHash(body: string, out: { cut: boolean }, depth: number): { [k: string]: PsValue } {
  const obj: { [k: string]: PsValue } = {};
  const { parts, unbalanced } = splitTop(body, ';');
  if (unbalanced) out.cut = true;
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    if (!/^[\w.$-]+$/.test(key)) continue;
    obj[key] = readInner(part.slice(eq + 1).trim(), out, depth + 1);
  }
  return obj;
}

function readInner(t: string, out: { cut: boolean }, depth: number): PsValue {
  if (depth > MAX_DEPTH) return t;
  if (t.startsWith('@{')) {
    const end = closing(t, 1);
    if (end === -1) out.cut = true;
    return readHash(t.slice(2, end === -1 ? t.length : end), out, depth);
  }
  if (t.startsWith('{')) {
    const end = closing(t, 0);
    if (end === -1) out.cut = true;
    const body = t.slice(1, end === -1 ? t.length : end).trim();
    if (body === '') return [];
    const { parts, unbalanced } = splitTop(body, ',');
    if (unbalanced) out.cut = true;
    return parts.filter((p) => p !== '').map((p) => readInner(p, out, depth + 1));
  }
  return t;
}

/** Reads one rendered value; plain text comes back as the trimmed string. */
export function readPsValue(text: string): PsValueRead {
  const out = { cut: false };
  const value = readInner(text.trim(), out, 0);
  return { value, cut: out.cut };
}
