// Cheap look-ups for the detailed VFP parser (policy-text.ts), which reads about a million rules on a big
// node, one block per call: what a field key means is worked out once per distinct key spelling (a dump
// has a few dozen), whole numbers of plain digits skip the general reader, and a line is only matched
// against the patterns its first character allows. Each gives exactly what the general function gives;
// test/bench/rule-parse-once.ts measures them (parsers/vfp/README-perf.md).
import type { IssueSink } from '../types.ts';
import { vfpInt } from './refusals.ts';
import { counterField, parseFlags } from './rule-values.ts';
import type { ParsedFlags } from './rule-values.ts';
import { normKey, parseIntLoose } from './text-lines.ts';
import type { KeyValue } from './text-lines.ts';
import { isRuleFieldKey, PORT_STATE_KEYS } from './policy-text-keys.ts';
import type { VfpRuleCounters } from './types.ts';

export interface KeyInfo {
  /** normKey(key). */
  nk: string;
  /** A /get-port-state field (PORT_STATE_KEYS, blanks removed). */
  portState: boolean;
  /** counterField(nk). */
  counter: keyof VfpRuleCounters | undefined;
  /** isRuleFieldKey(nk). */
  ruleField: boolean;
}

/** Bounded: a hostile dump with a million distinct keys costs at most this many entries. */
const KEY_CACHE_MAX = 4096;
const keys = new Map<string, KeyInfo>();

export function keyInfo(key: string): KeyInfo {
  let k = keys.get(key);
  if (k) return k;
  const nk = normKey(key);
  k = { nk, portState: PORT_STATE_KEYS.has(nk.replace(/ /g, '')), counter: counterField(nk), ruleField: isRuleFieldKey(nk) };
  if (keys.size >= KEY_CACHE_MAX) keys.clear();
  keys.set(key, k);
  return k;
}

/** Bounded like the key cache: a rule's Flags value is one of a handful (`1 terminating`, `0`). */
const FLAGS_CACHE_MAX = 1024;
const ruleFlags = new Map<string, ParsedFlags | null>();

/** parseFlags(value) of a rule's Flags (single-word names); each caller gets its own names array. */
export function ruleFlagsOf(value: string): ParsedFlags | undefined {
  let f = ruleFlags.get(value);
  if (f === undefined) {
    f = parseFlags(value) ?? null;
    if (ruleFlags.size >= FLAGS_CACHE_MAX) ruleFlags.clear();
    ruleFlags.set(value, f);
  }
  return f === null ? undefined : { flags: f.flags, text: f.text, names: f.names.slice() };
}

/** The value when it is 1–15 plain digits (always a safe integer, never refused), else undefined. */
function plainDigits(v: string): number | undefined {
  const n = v.length;
  if (n === 0 || n > 15) return undefined;
  for (let i = 0; i < n; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  return Number(v);
}

/** vfpInt (refusals.ts), with the common `Priority : 100` read without the general reader. */
export function fastVfpInt(sink: IssueSink, line: number, kv: KeyValue): number | undefined {
  return plainDigits(kv.value) ?? vfpInt(sink, line, kv);
}

/** parseIntLoose (text-lines.ts), with `Matched packets : 0` read without the general reader. */
export function fastIntLoose(value: string): number | undefined {
  return plainDigits(value) ?? parseIntLoose(value);
}

/**
 * Which line patterns of text-lines.ts can match a line, from its first character (and last, for the
 * `user @ HOST:` line). Every pattern there is anchored at a fixed ASCII letter or sign; the
 * case-insensitive ones never match a non-ASCII character (RegExp without the `u` flag does not fold
 * those onto ASCII), so skipping the others gives the same answers.
 */
export const Could = {
  Keyword: 1, // LAYER / GROUP / RULE (upper case only)
  Boundary: 2, // policy for port
  Blocked: 4,
  Error: 8,
  Trailer: 16, // Command … succeeded
  Prompt: 32, // `PS …>` or `vfpctrl …`
  Who: 64, // ends with ':'
  Header: 128, // ITEM LIST, ====
} as const;

export function couldMatch(body: string): number {
  let m = 0;
  switch (body.charCodeAt(0)) {
    case 76: // L
    case 71: // G
    case 82: // R
      m = Could.Keyword;
      break;
    case 80: // P
      m = Could.Boundary | Could.Prompt;
      break;
    case 112: // p
      m = Could.Boundary;
      break;
    case 66: // B
    case 98: // b
      m = Could.Blocked;
      break;
    case 69: // E
    case 101: // e
      m = Could.Error;
      break;
    case 67: // C
    case 99: // c
      m = Could.Trailer;
      break;
    case 86: // V
    case 118: // v
      m = Could.Prompt;
      break;
    case 73: // I
    case 105: // i
    case 61: // =
      m = Could.Header;
      break;
  }
  if (body.charCodeAt(body.length - 1) === 58) m |= Could.Who;
  return m;
}
