// Whole numbers read from a bundle, strictly: the digits written are the number meant, or the value is
// refused with a reason the caller turns into a parse issue at its line. `Number()` and `parseInt()`
// read `1e309` as Infinity, `1e3` as 1000, `-0` as 0, `0x10` as 16, `1.9` as 1 (parseInt) — each a
// different rule order, port or protocol, silently. Pure; no imports.

export interface IntRange {
  min: number;
  max: number;
  /** `0x…` accepted (vfpctrl prints flags and some counters in hex). */
  hex?: boolean;
  /** Thousands separators accepted (`1,234`: counters in some vfpctrl builds). */
  commas?: boolean;
}

export type IntRead = { value: number; problem?: undefined } | { value?: undefined; problem: string };

export const PORT: IntRange = { min: 0, max: 65535 };
export const PROTOCOL: IntRange = { min: 0, max: 255 };
export const OCTET: IntRange = { min: 0, max: 255 };
export const PREFIX_V4: IntRange = { min: 0, max: 32 };
export const PREFIX_V6: IntRange = { min: 0, max: 128 };
export const UINT32: IntRange = { min: 0, max: 0xffffffff };
/** Counters, indexes, priorities: any whole number JavaScript holds exactly. */
export const COUNT: IntRange = { min: 0, max: Number.MAX_SAFE_INTEGER };

function rangeText(r: IntRange): string {
  return r.max === Number.MAX_SAFE_INTEGER ? `a whole number from ${r.min} up` : `a whole number from ${r.min} to ${r.max}`;
}

/** The number `text` spells (trimmed), in range; `1e309`, `-0`, `+5`, `1.0`, `0x10` (unless hex) are refused. */
export function readInt(text: string, r: IntRange): IntRead {
  const t = text.trim();
  const shown = t.length > 24 ? `${t.slice(0, 24)}…` : t;
  let n: number;
  if (r.hex && /^0x[0-9a-f]{1,13}$/i.test(t)) n = parseInt(t.slice(2), 16);
  else if (/^-?\d{1,16}$/.test(t) || (r.commas && /^\d{1,3}(,\d{3}){1,4}$/.test(t))) n = Number(t.replace(/,/g, ''));
  else return { problem: `${JSON.stringify(shown)} is not ${rangeText(r)}${/[eE]/.test(t) && /\d/.test(t) ? ' (an exponent is not read)' : ''}` };
  if (Object.is(n, -0) || (t.startsWith('-') && r.min >= 0)) return { problem: `${JSON.stringify(shown)} is not ${rangeText(r)} (a sign is not read)` };
  if (!Number.isSafeInteger(n) || n < r.min || n > r.max) return { problem: `${shown} is out of range: not ${rangeText(r)}` };
  return { value: n };
}

/**
 * The number a value starts with, when words may follow it (`8195 terminating stateful`,
 * `100 (default)`): the number must end at a blank, a comma or a bracket — `1e309`, `1.5`, `12abc`
 * are refused rather than read as 1, 1 and 12. Undefined when the value does not start with a digit
 * or a minus sign (no number there at all).
 */
export function readLeadingInt(text: string, r: IntRange): IntRead | undefined {
  const t = text.trim();
  const m = /^(-?(?:0x[0-9a-f]+|\d[\d,]*))(.*)$/is.exec(t);
  if (!m) return undefined;
  const [, digits = '', rest = ''] = m;
  if (rest !== '' && !/^[\s(,;[{]/.test(rest)) return { problem: `${JSON.stringify(t.length > 24 ? `${t.slice(0, 24)}…` : t)} does not start with ${rangeText(r)}` };
  return readInt(digits.replace(/,$/, ''), r);
}

/** A JSON value that should hold a whole number: a number, or a string of digits. Undefined when absent. */
export function readJsonInt(v: unknown, r: IntRange): IntRead | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') {
    if (Object.is(v, -0)) return { problem: `-0 is not ${rangeText(r)} (a sign is not read)` };
    if (!Number.isSafeInteger(v) || v < r.min || v > r.max) return { problem: `${v} is not ${rangeText(r)}` };
    return { value: v };
  }
  if (typeof v === 'string') return v.trim() === '' ? undefined : readInt(v, r);
  return { problem: `${typeof v} is not ${rangeText(r)}` };
}

/** Whether a token is meant as a number (digits with sign, point, exponent or hex letters around them),
 *  so refusing it is worth a word; a word such as `any` is not. */
export function looksNumeric(tok: string): boolean {
  return /\d/.test(tok) && /^[-+]?[\d.]*(?:[eE][-+]?\d*|x[0-9a-f]*)?[\d.]*$/i.test(tok);
}
