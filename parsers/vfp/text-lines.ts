// Line primitives shared by the VFP text parsers. The byte scanner (scan.ts) mirrors exactly these
// definitions (line = up to LF, CR dropped, indentation = spaces and tabs), so both agree on where blocks start.
import { readLeadingInt, type IntRange } from '../text/numbers.ts';
import { trimTrailingBlanks } from '../text/trim-blanks.ts';

export interface Line {
  /** 1-based line number in the original file. */
  no: number;
  /** Count of leading spaces/tabs. */
  indent: number;
  /** The line without leading spaces/tabs and trailing spaces/tabs/CR. */
  body: string;
}

export function toLines(text: string, lineOffset = 0): Line[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const raw = src.split('\n');
  // A final LF does not open another line.
  if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop();
  return raw.map((s, i): Line => {
    let j = 0;
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c !== 32 && c !== 9) break;
      j++;
    }
    return { no: i + 1 + lineOffset, indent: j, body: trimTrailingBlanks(s.slice(j)) };
  });
}

export interface KeyValue {
  key: string;
  value: string;
}

/** `Key : value`, `Key: value`, `Key:` — first colon splits; keys never hold a colon in vfpctrl text. */
export function splitKeyValue(body: string): KeyValue | undefined {
  const i = body.indexOf(':');
  if (i <= 0) return undefined;
  const key = body.slice(0, i).trim();
  if (key === '' || key.startsWith('{')) return undefined;
  return { key, value: body.slice(i + 1).trim() };
}

/** Lower-case, `(s)` → `s`, whitespace collapsed: `Encap Destination(s)` → `encap destinations`. */
export function normKey(key: string): string {
  return key.toLowerCase().replace(/\(s\)/g, 's').replace(/\s+/g, ' ').trim();
}

/** What vfpctrl's numeric fields hold: a whole number, in decimal, hex or with thousands commas, words after it. */
const VFP_INT: IntRange = { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, hex: true, commas: true };

/** The whole number a vfpctrl value starts with (`8195 terminating`), or undefined: no number there, or
 *  one refused (`1e309` is not 1, `1.5` not 1 — parsers/text/numbers.ts); intProblem says why. */
export function parseIntLoose(value: string): number | undefined {
  return readLeadingInt(value, VFP_INT)?.value;
}

/** Why parseIntLoose refused a value that holds a number, or undefined (read, or no number at all). */
export function intProblem(value: string): string | undefined {
  return readLeadingInt(value, VFP_INT)?.problem;
}

export type Keyword = 'LAYER' | 'GROUP' | 'RULE';

// The `s` flag matters: a stray CR inside a line must not stop `.` (the byte scanner does not care either).
const KEYWORD = /^(LAYER|GROUP|RULE)[ \t]*:[ \t]*(.*)$/s;

/** Block keywords are upper-case at the first non-blank character, whatever the indentation. */
export function matchKeyword(body: string): { kw: Keyword; rest: string } | undefined {
  const m = KEYWORD.exec(body);
  if (!m) return undefined;
  const [, kw = '', rest = ''] = m;
  return { kw: kw as Keyword, rest };
}

const BOUNDARY = /^policy for port[ \t]*:[ \t]*(.*)$/is;

/** `Policy for port : ` (dumpVfpPolicies echo); the GUID is on this line or the next. */
export function matchPortBoundary(body: string): string | undefined {
  const m = BOUNDARY.exec(body);
  if (!m) return undefined;
  const [, name = ''] = m;
  return name;
}

const BLOCKED = /^blocked[ \t]*:[ \t]*(.*)$/is;

/** `Blocked : TRUE|FALSE` of /get-port-state; undefined value when unreadable. */
export function matchBlocked(body: string): { value: boolean | undefined } | undefined {
  const m = BLOCKED.exec(body);
  if (!m) return undefined;
  const [, value = ''] = m;
  return { value: boolValue(value) };
}

/** First character decides, the same way the byte scanner does. */
export function boolValue(v: string): boolean | undefined {
  const c = v.charAt(0);
  if ('tT1yY'.includes(c) && c !== '') return true;
  if ('fF0nN'.includes(c) && c !== '') return false;
  return undefined;
}

/** Whether a line after `Policy for port :` can be the port name (a GUID-like token, no blanks, no colon). */
export function isPortNameLine(body: string): boolean {
  return body !== '' && !/[ \t:]/.test(body) && !body.startsWith('=');
}

const TRAILER = /^Command[ \t]+(\S+)[ \t]+succeeded!?/i;

export function matchTrailer(body: string): string | undefined {
  const m = TRAILER.exec(body);
  if (!m) return undefined;
  const [, verb = ''] = m;
  return verb.toLowerCase();
}

/** Get-NetView and transcripts: `PS C:\> vfpctrl /port X /list-rule`. */
const PROMPT = /^PS [^>]*>[ \t]*(.*)$/s;
/** `vfpctrl /port X /layer Y /list-rule` on a line of its own. */
const BARE_COMMAND = /^(vfpctrl(?:\.exe)?[ \t]+[/-].*)$/is;
/** Get-NetView: `<user> @ <COMPUTER>:` before each command. */
const WHO = /^\S+ @ \S+:$/;

export interface PromptInfo {
  commandLine: string;
  verb: string;
  port?: string;
  layer?: string;
  group?: string;
}

export function matchPrompt(body: string): PromptInfo | undefined {
  // The command echoed without a prompt (pasted above its output: corpus vfp-list-rule-acl-layer…rke2windows).
  const m = PROMPT.exec(body) ?? BARE_COMMAND.exec(body);
  if (!m) return undefined;
  const [, cmd = ''] = m;
  const opt = (name: string): string | undefined => {
    const r = new RegExp(`[/-]${name}[ \\t]+("[^"]*"|\\S+)`, 'i').exec(cmd);
    const [, value] = r ?? [];
    return value?.replace(/^"|"$/g, '');
  };
  const [, verb = ''] = /[/-]((?:list|get|dump)-[\w-]+)/i.exec(cmd) ?? [];
  return { commandLine: cmd, verb: verb.toLowerCase(), port: opt('port'), layer: opt('layer'), group: opt('group') };
}

export function isWhoLine(body: string): boolean {
  return WHO.test(body);
}

export function isHeaderLine(body: string): boolean {
  return /^ITEM LIST$/i.test(body) || /^=+$/.test(body);
}
