// Tolerant accessors over ConvertTo-Json documents. HNS and PowerShell disagree on key case across
// builds (`ID`/`Id`, `IPAddress`/`IpAddress`), enums arrive as numbers or names, and values nested
// deeper than `-Depth` arrive as their .ToString() (`System.Object[]`, `@{k=v; ...}`). These helpers
// absorb all of that and record what was lost so the caller can warn once per object.

import { looksNumeric, PROTOCOL, readJsonInt, type IntRange } from '../text/numbers.ts';
import { normalizeMac } from '../net/mac.ts';

export type Obj = Record<string, unknown>;

/** Collects the key paths whose values were depth-truncated by ConvertTo-Json. */
export class Lossy {
  readonly truncated: string[] = [];
  /** Numbers refused (`ExternalPort: 1e309`), with why: the object is kept, the value is not read. */
  readonly refused: string[] = [];
  note(path: string): void {
    if (this.truncated.length < 20 && !this.truncated.includes(path)) this.truncated.push(path);
  }
  refuse(what: string): void {
    if (this.refused.length < 20 && !this.refused.includes(what)) this.refused.push(what);
  }
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Value of the first of `names` present on `o`, compared case-insensitively. */
export function field(o: unknown, ...names: string[]): unknown {
  if (!isObj(o)) return undefined;
  for (const n of names) if (n in o) return o[n];
  const lower = names.map((n) => n.toLowerCase());
  for (const k of Object.keys(o)) {
    if (lower.includes(k.toLowerCase())) return o[k];
  }
  return undefined;
}

export function has(o: unknown, ...names: string[]): boolean {
  return field(o, ...names) !== undefined;
}

const TRUNCATED_ARRAY = /^System\.[\w.`]+\[\]$/;

/** `@{a=1; b=x}` (PowerShell's rendering of a nested object) back into a flat object. */
export function parsePsHash(s: string): Obj | undefined {
  const m = /^@\{(.*)\}$/s.exec(s.trim());
  if (!m) return undefined;
  const out: Obj = {};
  const [, body = ''] = m;
  for (const part of body.split(/;\s*/)) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

export function asObj(v: unknown, lossy?: Lossy, path = ''): Obj | undefined {
  if (isObj(v)) return v;
  if (typeof v === 'string') {
    const h = parsePsHash(v);
    if (h) {
      lossy?.note(path);
      return h;
    }
  }
  return undefined;
}

/** Array view of `v`: scalars become one-element arrays, depth-truncated arrays become []. */
export function asArr(v: unknown, lossy?: Lossy, path = ''): unknown[] {
  if (Array.isArray(v)) return v;
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') {
    const t = v.trim();
    if (TRUNCATED_ARRAY.test(t)) {
      lossy?.note(path);
      return [];
    }
    if (t === '') return [];
    const h = parsePsHash(t);
    if (h) {
      lossy?.note(path);
      return [h];
    }
  }
  return [v];
}

export function asStr(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** Non-empty trimmed string, else undefined. */
export function str(o: unknown, ...names: string[]): string | undefined {
  const s = asStr(field(o, ...names));
  if (s === undefined) return undefined;
  const t = s.trim();
  return t === '' ? undefined : t;
}

export function asNum(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

export function num(o: unknown, ...names: string[]): number | undefined {
  return asNum(field(o, ...names));
}

export function asBool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    if (t === 'true' || t === '1') return true;
    if (t === 'false' || t === '0') return false;
  }
  return undefined;
}

export function bool(o: unknown, ...names: string[]): boolean | undefined {
  return asBool(field(o, ...names));
}

/** State-like enums: keep numbers as numbers and names as given. */
export function enumValue(o: unknown, ...names: string[]): number | string | undefined {
  const v = field(o, ...names);
  const n = asNum(v);
  if (n !== undefined) return n;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/**
 * A flags enum as a bit set: a number, a numeric string, a name or a list of names
 * ("DSR", "ILB, UseMux", ["IPv6"]) resolved case-insensitively through `table`.
 */
export function flagBits(v: unknown, table: Record<string, number>): number {
  if (v === undefined || v === null) return 0;
  const n = asNum(v);
  if (n !== undefined) return n;
  if (Array.isArray(v)) return v.reduce<number>((acc, x) => acc | flagBits(x, table), 0);
  if (typeof v !== 'string') return 0;
  let bits = 0;
  for (const name of v.split(/[\s,|]+/)) {
    if (!name) continue;
    const hit = Object.entries(table).find(([k]) => k.toLowerCase() === name.toLowerCase());
    if (hit) bits |= hit[1];
  }
  return bits;
}

const GUID_BRACES = /^\{(.*)\}$/;

/** Lower-case GUID without braces; other strings are only trimmed and lower-cased. */
export function normGuid(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  let t = s.trim();
  const inner = GUID_BRACES.exec(t)?.[1];
  if (inner !== undefined) t = inner;
  return t === '' ? undefined : t.toLowerCase();
}

/** MAC as upper-case dash-separated pairs (`00-15-5D-AA-BF-3D`), separators anywhere (HNS objects are
 *  written by hand too); unparseable input kept as given, upper-cased. */
export function normMac(s: string | undefined): string | undefined {
  const t = s?.trim();
  if (!t) return undefined;
  return normalizeMac(t, { anySeparators: true }) ?? t.toUpperCase();
}

/** Strings of a list-ish value: arrays, or one comma/space-separated string (v1 `DNSServerList`). */
export function strList(v: unknown, lossy?: Lossy, path = ''): string[] {
  if (typeof v === 'string' && !TRUNCATED_ARRAY.test(v.trim())) {
    return v.split(/[,;\s]+/).map((x) => x.trim()).filter((x) => x !== '');
  }
  const out: string[] = [];
  for (const x of asArr(v, lossy, path)) {
    const s = asStr(x);
    if (s !== undefined && s.trim() !== '') out.push(s.trim());
  }
  return out;
}

const PROTOCOLS: Record<string, number> = { tcp: 6, udp: 17, icmp: 1, icmpv6: 58, any: 0, all: 0 };

/** IANA protocol number from a number or a name (absent or an unknown name: 0, any). A number that
 *  is not a protocol (`1e309`, `-0`, `300`) is refused: undefined, and `lossy` says why. */
export function protocolNumber(v: unknown, lossy?: Lossy, path = 'Protocol'): number | undefined {
  if (typeof v === 'string' && PROTOCOLS[v.trim().toLowerCase()] !== undefined) return PROTOCOLS[v.trim().toLowerCase()];
  if (typeof v === 'number' || (typeof v === 'string' && looksNumeric(v.trim()))) return intValue(v, PROTOCOL, lossy, path);
  return 0;
}

/** A whole number in range from a JSON value (undefined when absent); refused ones are told to `lossy`. */
export function intValue(v: unknown, r: IntRange, lossy: Lossy | undefined, path: string): number | undefined {
  const n = readJsonInt(v, r);
  if (n?.problem) lossy?.refuse(`${path}: ${n.problem}`);
  return n?.value;
}

export interface Allocator {
  tag: string;
  value: Obj;
}

/** Resources.Allocators (v1) or Health.Extra.Resources.Allocators (v2), tagged. */
export function allocators(o: unknown, lossy?: Lossy): Allocator[] {
  const out: Allocator[] = [];
  const pushFrom = (res: unknown, path: string): void => {
    for (const a of asArr(field(asObj(res), 'Allocators'), lossy, `${path}.Allocators`)) {
      if (!isObj(a)) continue;
      out.push({ tag: str(a, 'Tag') ?? '', value: a });
    }
  };
  pushFrom(field(o, 'Resources'), 'Resources');
  const extra = field(asObj(field(o, 'Health')), 'Extra');
  pushFrom(field(asObj(extra), 'Resources'), 'Health.Extra.Resources');
  return out;
}

export function allocatorByTag(list: Allocator[], tag: string): Obj | undefined {
  const t = tag.toLowerCase();
  return list.find((a) => a.tag.toLowerCase() === t)?.value;
}
