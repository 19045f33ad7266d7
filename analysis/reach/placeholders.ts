// The packet's own destination written as placeholders in an outcome's key (outcome.ts), so the packets
// of one class compare equal. What is replaced, exactly as the regular expression
// /(^|[^0-9.])<ip>(?![0-9])/g with "$1<dst>" would (the way it was written before): an occurrence of the
// address at the start of the text or after a character that is no digit and no dot, not followed by
// a digit, scanning left to right, a character that ended one replaced occurrence never starting the
// next. Written as a scan with indexOf (issue #25 point 7): a regular expression compiled per example
// address was most of what a class's key cost (one per walked cell);
// test/unit/reach/placeholders.test.ts holds the scan against the regular expression on random texts.

const isDigit = (c: number) => c >= 48 && c <= 57;

/** `s` with every occurrence of `ip` that stands alone (see above) replaced by `<dst>`. */
export function replaceAddress(s: string, ip: string): string {
  if (!ip) return s;
  let i = s.indexOf(ip);
  if (i < 0) return s;
  let out = '';
  // Where the text not yet copied starts: the end of the last replaced occurrence (the regular
  // expression's scan position), or 0.
  let from = 0;
  for (; i >= 0; i = s.indexOf(ip, i + 1)) {
    const end = i + ip.length;
    if (end < s.length && isDigit(s.charCodeAt(end))) continue;
    if (i > 0) {
      // The character before must be the match's own first character: not consumed by the last match.
      if (i - 1 < from) continue;
      const c = s.charCodeAt(i - 1);
      if (isDigit(c) || c === 46) continue;
    }
    out += s.slice(from, i) + '<dst>';
    from = end;
    // The next occurrence may start only after this one (the scan resumes at its end).
    i = end - 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Replaces the flow's own destination address and port with placeholders: a field equal to the port, the address inside any field. */
export function normaliser(flow: { dstIp: string; dstPort?: number }): (s: string | undefined) => string {
  const ip = flow.dstIp;
  const port = flow.dstPort === undefined ? undefined : String(flow.dstPort);
  return (s) => {
    if (s === undefined) return '';
    if (s === port) return '<port>';
    return replaceAddress(s, ip);
  };
}
