// A small structural check of GitHub-flavoured Markdown (no Markdown package in the project): fences
// closed, <details>/<summary> balanced, only the HTML tags the renderer means to emit, and every
// table's rows with as many cells as its header.
export function checkMarkdown(md: string): string[] {
  const problems: string[] = [];
  const lines = md.split('\n');
  let fence: string | undefined;
  let table: number | undefined;
  let details = 0;
  lines.forEach((line, i) => {
    const n = i + 1;
    const f = /^(```|~~~~)/.exec(line);
    if (f) {
      if (!fence) fence = f[1];
      else if (line.startsWith(fence)) fence = undefined;
      return;
    }
    if (fence) return;
    const stripped = line.replace(/`[^`]*`/g, '');
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
