// Test-only: CommonMark 0.31.2 §6.1 (code spans) and §2.4 (backslash escapes) read back from a line of
// Markdown, written from the spec and independently of analysis/report/code-spans.ts, so the report's
// escaping is checked against the spec rather than against itself. No CommonMark package is installed.
// https://spec.commonmark.org/0.31.2/#code-spans

export interface Segment {
  code: boolean;
  /** For code: the content as the spec shows it (line endings → spaces, one space stripped each side
   *  when both are there and it is not all spaces). For text: the Markdown source as written. */
  text: string;
  /** Offsets of the segment in the input (for code: from the opening run to the end of the closing run). */
  from: number;
  to: number;
}

const ASCII_PUNCT = /[!-/:-@[-`{-~]/;

/** Splits one inline run into text and code spans. A backtick run is an opener only when not
 *  backslash-escaped (an odd number of backslashes before it, outside a code span). */
export function readCodeSpans(s: string): Segment[] {
  const out: Segment[] = [];
  let textFrom = 0;
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length && ASCII_PUNCT.test(s[i + 1])) {
      i += 2; // an escaped punctuation character is literal, a backtick included
      continue;
    }
    if (c !== '`') {
      i++;
      continue;
    }
    let n = 0;
    while (s[i + n] === '`') n++;
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
      i += n; // no closer: the run is literal text
      continue;
    }
    if (i > textFrom) out.push({ code: false, text: s.slice(textFrom, i), from: textFrom, to: i });
    let inner = s.slice(i + n, close).replace(/\r\n|\r|\n/g, ' ');
    if (inner.length >= 2 && inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() !== '') inner = inner.slice(1, -1);
    out.push({ code: true, text: inner, from: i, to: close + n });
    i = close + n;
    textFrom = i;
  }
  if (textFrom < s.length) out.push({ code: false, text: s.slice(textFrom), from: textFrom, to: s.length });
  return out;
}

/** Characters of the text outside code spans that are live Markdown/HTML syntax (not backslash-escaped). */
export function unescaped(text: string, chars: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length && ASCII_PUNCT.test(text[i + 1])) {
      i++;
      continue;
    }
    if (chars.includes(text[i])) found.push(`${text[i]} at ${i}`);
  }
  return found;
}
