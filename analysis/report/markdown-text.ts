// Markdown text escaping for the report (markdown.ts, services-section.ts): table cells, paragraphs,
// code spans and fences that keep a value's text literal whatever characters it holds.
import { splitCodeSpans } from './code-spans.ts';

const escHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Line endings: a code span's inner line ending is shown as a space by CommonMark anyway, and a raw
 *  one would let the next line start a block (`# …`, `<div>`) that cuts the span open. */
const oneLine = (s: string) => s.replace(/\r\n?|\n/g, ' ');

/** Text for a table cell: no pipe, no newline, no raw HTML outside code spans, no link or emphasis
 *  from the text (`[ip-1](…)` would be a link). */
export function cell(s: string): string {
  return splitCodeSpans(s)
    .map((p) => (p.code ? oneLine(p.text).replace(/\|/g, '\\|') : escInline(escHtml(p.text)).replace(/\|/g, '\\|').replace(/\r\n?|\n/g, '<br>')))
    .join('');
}

/** Text for a paragraph: HTML-escaped so a `<` in a rule name cannot open a tag; code spans stay as written. */
export function para(s: string): string {
  return splitCodeSpans(s)
    .map((p, i) => (p.code ? oneLine(p.text) : escMarkdown(escHtml(p.text), i === 0)))
    .join('');
}

/** Text inside raw HTML (`<summary>`): Markdown is not read there, so a code span would be raw HTML. */
export function htmlText(s: string): string {
  return escHtml(oneLine(s)).replace(/"/g, '&quot;');
}

/** Inline syntax escaped: backslash, emphasis, links, strikethrough, and backticks left as text. */
export function escInline(s: string): string {
  return s.replace(/[\\*_[\]~`]/g, '\\$&');
}

/**
 * Prose as Markdown shows it as written: a backslash, * _ [ ] ~ and the backticks splitCodeSpans left
 * as text (runs with no closer: escaped, so none pairs with a later one or opens a fence) escaped
 * (`C:\k\cni\config\*.conf` outside a code span lost its backslashes and its star), and a line that
 * would start a heading, a quote, a list item, a table row or a setext underline. A lone CR is a line
 * ending too (CommonMark §2.1), so line endings are written as LF first.
 */
export function escMarkdown(s: string, atStart = true): string {
  const t = escInline(s.replace(/\r\n?/g, '\n'));
  // A block marker at the start of a line: `# `, `> `, `- `, `+ `, `1. `, `1) `, `|`, `=` (its last character escaped).
  const lead = atStart ? /(^|\n)([ \t]*)(\d+(?=[.)])|)([#>+\-.)|=])/g : /(\n)([ \t]*)(\d+(?=[.)])|)([#>+\-.)|=])/g;
  return t.replace(lead, (_m, nl: string, sp: string, digits: string, mark: string) => (digits || '#>+-|='.includes(mark) ? `${nl}${sp}${digits}\\${mark}` : _m));
}

/** The longest run of `ch` in `s`. */
function longestRun(s: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of s) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/**
 * Inline code that shows `s` exactly (CommonMark 0.31 §6.1): delimited by a backtick run longer than
 * any run inside, so no run inside can close it; padded with one space on each side when the text
 * starts or ends with a backtick (it would join the delimiter) or starts and ends with a space (one
 * would be stripped). Line endings become spaces, as a renderer shows them.
 */
export function code(s: string): string {
  if (!s) return '';
  const t = oneLine(s);
  const ticks = '`'.repeat(longestRun(t, '`') + 1);
  const pad = t.startsWith('`') || t.endsWith('`') || (t.startsWith(' ') && t.endsWith(' ') && t.trim() !== '') ? ' ' : '';
  return `${ticks}${pad}${t}${pad}${ticks}`;
}

export function codeCell(s: string): string {
  return code(s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' '));
}

/** A fenced block: a backtick fence longer than any backtick run in the body, so no line closes it. */
export function fence(lines: string[]): string {
  const body = lines.join('\n');
  const f = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return `${f}text\n${body}\n${f}`;
}

