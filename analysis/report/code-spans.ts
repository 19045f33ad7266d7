// Code spans in the checks' text (`Get-HnsEndpoint | ConvertTo-Json`): where they are, for the
// Markdown report (kept verbatim), the HTML report and the app (drawn as code, copied without their
// backticks — a backtick is PowerShell's escape character, so one pasted into a shell changes the
// command). Pure; no imports, so the renderer can use it.

/**
 * Splits text into prose and Markdown code spans (CommonMark: a run of n backticks opens a span that
 * the next run of exactly n backticks closes; an unmatched run is literal text). Code spans are shown
 * verbatim by every Markdown renderer — an entity such as `&lt;` inside one would be printed as is —
 * so only the prose around them is escaped. A code part's text keeps its backticks.
 */
export function splitCodeSpans(s: string): { text: string; code: boolean }[] {
  const out: { text: string; code: boolean }[] = [];
  let prose = '';
  let i = 0;
  while (i < s.length) {
    if (s[i] !== '`') {
      prose += s[i++];
      continue;
    }
    let n = 0;
    while (s[i + n] === '`') n++;
    // Find the next run of exactly n backticks.
    let j = i + n;
    let close = -1;
    while (j < s.length) {
      if (s[j] !== '`') {
        j++;
        continue;
      }
      let m = 0;
      while (s[j + m] === '`') m++;
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close < 0) {
      prose += s.slice(i, i + n);
      i += n;
      continue;
    }
    if (prose) out.push({ text: prose, code: false });
    prose = '';
    out.push({ text: s.slice(i, close + n), code: true });
    i = close + n;
  }
  if (prose) out.push({ text: prose, code: false });
  return out;
}

/** A code span's content, as CommonMark shows it: without its backticks, and without one space on
 *  each side when both are there (how a span starting or ending with a backtick is written). */
export function codeSpanText(span: string): string {
  let n = 0;
  while (span[n] === '`') n++;
  const inner = span.slice(n, span.length - n);
  return inner.length > 2 && inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() ? inner.slice(1, -1) : inner;
}

/** Prose and code, the code without its backticks. */
export function codeParts(s: string): { text: string; code: boolean }[] {
  return splitCodeSpans(s).map((p) => (p.code ? { text: codeSpanText(p.text), code: true } : p));
}

/** The text as a reader copies it: code spans without their backticks. */
export function withoutCodeMarks(s: string): string {
  return codeParts(s)
    .map((p) => p.text)
    .join('');
}
