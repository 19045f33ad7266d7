// A small structural check of GitHub-flavoured Markdown (no Markdown package in the project): fences
// closed, <details>/<summary> balanced, only the HTML tags the renderer means to emit, and every
// table's rows with as many cells as its header.
import { readCodeSpans } from './commonmark-code-spans.ts';

export function checkMarkdown(md: string): string[] {
  const problems: string[] = [];
  const lines = md.split('\n');
  let fence: string | undefined;
  let table: number | undefined;
  let details = 0;
  lines.forEach((line, i) => {
    const n = i + 1;
    // A fence opens with 3+ backticks or tildes and closes with a run of the same character at least as
    // long and nothing after it but spaces (CommonMark §4.5).
    const f = /^(`{3,}|~{3,})/.exec(line);
    // An opening backtick fence's info string holds no backtick (§4.5): "``` ```" is a code span.
    const opens = f && !(f[1][0] === '`' && line.slice(f[1].length).includes('`'));
    if (f && (fence || opens)) {
      if (!fence) fence = f[1];
      else if (f[1][0] === fence[0] && f[1].length >= fence.length && line.slice(f[1].length).trim() === '') fence = undefined;
      return;
    }
    if (fence) return;
    // Code spans read as the spec reads them (commonmark-code-spans.ts); a line that starts raw HTML
    // (`<details><summary>…`) is an HTML block, where backticks are no code span and nothing is stripped.
    const stripped = /^\s*</.test(line) ? line : readCodeSpans(line).filter((s) => !s.code).map((s) => s.text).join('');
    for (const m of stripped.matchAll(/<\/?([a-zA-Z][\w-]*)[^>]*>/g)) {
      if (!['details', 'summary', 'sub', 'br'].includes(m[1].toLowerCase())) problems.push(`${n}: unexpected tag ${m[0]}`);
    }
    details += (stripped.match(/<details>/g) ?? []).length - (stripped.match(/<\/details>/g) ?? []).length;
    if ((stripped.match(/<summary>/g) ?? []).length !== (stripped.match(/<\/summary>/g) ?? []).length) problems.push(`${n}: <summary> not closed on its line`);
    if (line.startsWith('|')) {
      const cells = splitRow(line);
      if (table === undefined) {
        const next = lines[i + 1] ?? '';
        if (!/^\|(\s*:?-{3,}:?\s*\|)+\s*$/.test(next)) problems.push(`${n}: table header without a delimiter row`);
        table = cells;
      } else if (cells !== table) problems.push(`${n}: ${cells} cells, the header has ${table}`);
    } else table = undefined;
  });
  if (fence) problems.push('unclosed code fence');
  if (details !== 0) problems.push(`<details> not balanced (${details})`);
  return problems;
}

/** Cells of a table row: pipes escaped with a backslash do not split. */
function splitRow(line: string): number {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).length;
}
