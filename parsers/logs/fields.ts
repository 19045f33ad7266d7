// `key=value key2="quoted \"value\""` pairs, as logrus, structured klog and Calico append them to a
// line. Bounded: at most 64 pairs, values cut at 2,000 characters.

const MAX_FIELDS = 64;

/** Unescapes a Go-quoted string body (`\"`, `\\`, `\n`, `\t`). */
export function unquoteGo(s: string): string {
  return s.replace(/\\(["\\nt])/g, (_m, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/**
 * Reads the `key=value` pairs of `s` from `from` on. Text that is not a pair stops the reading
 * (a message continues there); `rest` is the offset where it stopped.
 */
export function readPairs(s: string, from = 0): { fields: Record<string, string>; rest: number } {
  const fields: Record<string, string> = {};
  // A quoted value cut by the end of the line (a truncated paste) runs to the end.
  const re = /\s*([A-Za-z_][\w.-]{0,63})=("(?:[^"\\]|\\.)*"|"(?:[^"\\]|\\.)*$|[^\s"]*)/y;
  re.lastIndex = from;
  let rest = from;
  let n = 0;
  for (;;) {
    const m = re.exec(s);
    if (!m || n >= MAX_FIELDS) break;
    const [, key = '', raw = ''] = m;
    const closed = raw.length >= 2 && raw.endsWith('"') && !raw.endsWith('\\"');
    let v = raw.startsWith('"') ? unquoteGo(closed ? raw.slice(1, -1) : raw.slice(1)) : raw;
    if (v.length > 2000) v = v.slice(0, 2000) + '…';
    fields[key] = v;
    rest = re.lastIndex;
    n++;
  }
  return { fields, rest };
}

/** Pairs at the end of a message (`… msg text ContainerID="…" Namespace="…"`): the message and the pairs. */
export function trailingPairs(s: string): { message: string; fields: Record<string, string> } {
  // Find the earliest position from which everything up to the end is pairs. Bounded: a long line is
  // a message (a dump), and at most 64 starts are tried.
  if (s.length > 4000) return { message: s.trim(), fields: {} };
  const candidates: number[] = [];
  const re = /(?:^|\s)[A-Za-z_][\w.-]{0,63}=/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null && candidates.length < 64) candidates.push(m.index);
  for (const at of candidates) {
    const r = readPairs(s, at);
    if (Object.keys(r.fields).length > 0 && s.slice(r.rest).trim() === '') {
      return { message: s.slice(0, at).trim(), fields: r.fields };
    }
  }
  return { message: s.trim(), fields: {} };
}
