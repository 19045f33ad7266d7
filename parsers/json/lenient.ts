// A forgiving JSON reader used only when JSON.parse rejects an element. It repairs what hand-edited
// excerpts and pasted snippets typically break (trailing commas, a missing comma at a line break,
// a lost opening or closing brace, raw control characters in strings) and reports every repair by
// offset; anything else is a hard failure at the offset where reading stopped.

export interface LenientRepair {
  at: number;
  message: string;
}

export type LenientResult =
  | { ok: true; value: unknown; repairs: LenientRepair[] }
  | { ok: false; at: number; message: string; repairs: LenientRepair[] };

export interface LenientOptions {
  /** Read an object body whose `{` is missing (starts at the first key). */
  bracelessObject?: boolean;
  /** At the end of input, close whatever is still open (with a repair note) instead of failing. */
  closeAtEnd?: boolean;
}

const MAX_DEPTH = 512;

/** The repair note for a string holding a raw line break (a hard-wrapped line, see json/unwrap.ts). */
export const LINE_BREAK_IN_STRING = 'string contains a raw line break (the line was wrapped inside it)';

class Fail {
  constructor(
    readonly at: number,
    readonly message: string,
  ) {}
}

export function parseLenient(text: string, start: number, end: number, opts: LenientOptions = {}): LenientResult {
  const repairs: LenientRepair[] = [];
  let pos = start;
  let controlNoted = false;
  let breakNoted = false;

  const ws = (): void => {
    while (pos < end) {
      const c = text.charCodeAt(pos);
      if (c === 32 || c === 10 || c === 13 || c === 9 || c === 0xfeff) pos++;
      else break;
    }
  };
  const newlineBetween = (a: number, b: number): boolean => {
    const nl = text.indexOf('\n', a);
    return nl !== -1 && nl < b;
  };

  const parseString = (): string => {
    const open = pos;
    let i = pos + 1;
    let simple = true;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c === 92) {
        simple = false;
        i += 2;
        continue;
      }
      if (c < 32) simple = false;
      i++;
    }
    if (i >= end) throw new Fail(open, 'unterminated string');
    pos = i + 1;
    const raw = text.slice(open + 1, i);
    if (simple) return raw;
    try {
      return JSON.parse(text.slice(open, i + 1)) as string;
    } catch {
      // Control characters or a bad escape: decode by hand, keeping what cannot be decoded.
      // A raw line break is said on its own: it is what a console's hard wrap leaves in compact
      // JSON, and the caller can rejoin the lines instead of keeping the break in the value.
      if (/[\r\n]/.test(raw)) {
        if (!breakNoted) repairs.push({ at: open, message: LINE_BREAK_IN_STRING });
        breakNoted = true;
      } else if (!controlNoted) {
        repairs.push({ at: open, message: 'string contains raw control characters or invalid escapes' });
        controlNoted = true;
      }
      return decodeLoose(raw);
    }
  };

  const parseLiteral = (): unknown => {
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(pos, Math.min(end, pos + 64)));
    if (!m) throw new Fail(pos, `unexpected character ${JSON.stringify(text.charAt(pos))}`);
    pos += m[0].length;
    const t = m[0];
    if (t === 'true') return true;
    if (t === 'false') return false;
    if (t === 'null') return null;
    return Number(t);
  };

  const parseValue = (depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new Fail(pos, 'nesting too deep');
    ws();
    if (pos >= end) throw new Fail(pos, 'unexpected end of input');
    const c = text.charCodeAt(pos);
    if (c === 123) {
      pos++;
      return parseObjectBody(depth + 1, false);
    }
    if (c === 91) {
      pos++;
      return parseArrayBody(depth + 1);
    }
    if (c === 34) return parseString();
    return parseLiteral();
  };

  const parseObjectBody = (depth: number, braceless: boolean): Record<string, unknown> => {
    const obj: Record<string, unknown> = {};
    let needComma = false;
    for (;;) {
      ws();
      if (pos >= end) {
        if (opts.closeAtEnd || braceless) {
          repairs.push({ at: end, message: 'object not closed before end of input' });
          return obj;
        }
        throw new Fail(pos, 'unexpected end of input inside an object');
      }
      const c = text.charCodeAt(pos);
      if (c === 125) {
        pos++;
        return obj;
      }
      if (c === 44) {
        const at = pos;
        pos++;
        ws();
        if (pos < end && text.charCodeAt(pos) === 125) repairs.push({ at, message: 'trailing comma before }' });
        else if (!needComma) repairs.push({ at, message: 'extra comma in object' });
        needComma = false;
        continue;
      }
      if (needComma) {
        if (c === 34 && newlineBetween(lastEnd, pos)) repairs.push({ at: pos, message: 'missing comma between members' });
        else throw new Fail(pos, 'expected , or } in object');
      }
      if (c !== 34) throw new Fail(pos, 'expected a quoted key');
      const key = parseString();
      ws();
      if (pos >= end || text.charCodeAt(pos) !== 58) throw new Fail(pos, 'expected : after key');
      pos++;
      obj[key] = parseValue(depth);
      lastEnd = pos;
      needComma = true;
    }
  };

  let lastEnd = start;

  const parseArrayBody = (depth: number): unknown[] => {
    const arr: unknown[] = [];
    let needComma = false;
    for (;;) {
      ws();
      if (pos >= end) {
        if (opts.closeAtEnd) {
          repairs.push({ at: end, message: 'array not closed before end of input' });
          return arr;
        }
        throw new Fail(pos, 'unexpected end of input inside an array');
      }
      const c = text.charCodeAt(pos);
      if (c === 93) {
        pos++;
        return arr;
      }
      if (c === 44) {
        const at = pos;
        pos++;
        ws();
        if (pos < end && text.charCodeAt(pos) === 93) repairs.push({ at, message: 'trailing comma before ]' });
        else if (!needComma) repairs.push({ at, message: 'extra comma in array' });
        needComma = false;
        continue;
      }
      if (needComma) {
        if (newlineBetween(lastEnd, pos)) repairs.push({ at: pos, message: 'missing comma between array elements' });
        else throw new Fail(pos, 'expected , or ] in array');
      }
      arr.push(parseValue(depth));
      lastEnd = pos;
      needComma = true;
    }
  };

  try {
    let value: unknown;
    if (opts.bracelessObject) {
      repairs.push({ at: start, message: 'object has no opening brace (excerpt?)' });
      value = parseObjectBody(1, true);
    } else {
      value = parseValue(0);
    }
    ws();
    if (pos < end) throw new Fail(pos, 'unexpected text after the value');
    return { ok: true, value, repairs };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, at: e.at, message: e.message, repairs };
    // Stack overflow or anything unforeseen: still never throw to callers.
    return { ok: false, at: pos, message: e instanceof Error ? e.message : 'parse failure', repairs };
  }
}

function decodeLoose(raw: string): string {
  return raw.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_m, esc: string) => {
    if (esc.length === 5) return String.fromCharCode(parseInt(esc.slice(1), 16));
    switch (esc) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      default:
        return esc;
    }
  });
}
