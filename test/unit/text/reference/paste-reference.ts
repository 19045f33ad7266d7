// THE REPLACED READER, kept as a test oracle: parsers/text/paste.ts before its one-pass rewrite (2026-11-29), so the
// one-pass test can show the rewrite reads every sample and mutation alike. It is not product code. When
// the reader's behaviour changes on purpose, delete this file and its one-pass test (their job is done).
// What a person pastes into a ticket is the command output plus what the ticket did to it: markdown
// code fences, `> ` quote marks on every line (a GitHub blockquote), a code-block indentation on
// every line (four spaces in markdown, twelve in a nested list), a TAB in front of every line, a
// stray backtick from inline code, lines padded with spaces to the console width. This undoes those
// before any parser runs, without moving a line: the cleaned text has exactly the lines of the
// original, so every `file:line` still points at the line the person sees.
//
// Sources: the corpus shows each of these (hnsdiag-list-all…sig-windows-tools-issue-168: "> " on
// every line; route-print-ipv4-in-container…MSIExperiment: 12-space indent; hns-network-list-vxlan0-
// indented-de…flannel-pr-1238: 4-space indent; hns-loadbalancer-json…pr-115344: TAB prefix;
// route-print…acs-engine-issue-1713: leading backtick); the research sample get-netroute-console-
// width-padding (antrea#2344) shows lines padded to ~316 columns.

export interface PasteCleanup {
  text: string;
  /** What was undone, in words (empty when the text was left as it was). */
  changes: string[];
}

const FENCE = /^\s*(```|~~~)/;
// One or more levels of blockquote (`> `, a quoted reply's `> > `, GitHub's `>>`), each `>` with or
// without its space. Every step of the repetition takes a `>`: linear.
const QUOTES = /^ {0,3}>(?: ?>)* ?/;
const QUOTES_BARE = /^ {0,3}>+/;
// A line quoted the usual way: the last `>` followed by a space or the end of the line.
const QUOTE_SPACED = /^ {0,3}>(?: ?>)*(?: |$)/;

function share(lines: string[], test: (l: string) => boolean): number {
  let n = 0;
  let of = 0;
  for (const l of lines) {
    if (l.trim() === '') continue;
    of++;
    if (test(l)) n++;
  }
  return of === 0 ? 0 : n / of;
}

/** Undoes ticket formatting line by line; the line count never changes. */
/** The reader as it was before the one-pass rewrite (2026-11-29): the reference the fast one is checked against. */
export function cleanPasteReference(input: string): PasteCleanup {
  const changes: string[] = [];
  const bom = input.charCodeAt(0) === 0xfeff;
  const body = bom ? input.slice(1) : input;
  const lines = body.split(/\r\n|\n|\r/);

  let fences = 0;
  for (const [i, l] of lines.entries()) {
    if (FENCE.test(l)) {
      lines[i] = '';
      fences++;
    }
  }
  if (fences) changes.push(`${fences} markdown code fence line${fences > 1 ? 's' : ''} ignored`);

  // A blockquote: most lines start with `> ` (at any depth), or every line with `>` (a quote whose
  // marks lost their space). PowerShell's own `>>` continuation prompt and a lone `>cmd` prompt line
  // among other lines do not make a quote.
  const nonBlank = lines.reduce((k, l) => k + (l.trim() === '' ? 0 : 1), 0);
  // Every line quoted and some mark straight against its text: the marks have no space, and a space
  // after a mark is the line's own indentation.
  const bare = nonBlank >= 2 && share(lines, (l) => QUOTES.test(l)) === 1 && lines.some((l) => /^ {0,3}>+[^ >]/.test(l));
  const spaced = !bare && share(lines, (l) => QUOTE_SPACED.test(l)) >= 0.6;
  if (spaced || bare) {
    let n = 0;
    let depth = 1;
    for (const [i, l] of lines.entries()) {
      // Marks without their space: only the `>`s go, a space after them is the line's own indentation.
      const m = (spaced ? QUOTES : QUOTES_BARE).exec(l);
      if (m) {
        lines[i] = l.slice(m[0].length);
        n++;
        let d = 0;
        for (let k = 0; k < m[0].length; k++) if (m[0].charCodeAt(k) === 62) d++;
        if (d > depth) depth = d;
      }
    }
    changes.push(`${spaced ? '"> "' : '">"'} quote marks${depth > 1 ? ` (${depth} levels)` : ''} removed from ${n} lines`);
  }

  const first = lines[0];
  if (first !== undefined && /^`(?!``)/.test(first)) {
    lines[0] = first.slice(1);
    changes.push('a stray backtick at the start removed');
  }
  const last = lines.length - 1;
  const lastLine = lines[last];
  if (lastLine !== undefined && /(?<!`)`\s*$/.test(lastLine) && !/``\s*$/.test(lastLine)) lines[last] = lastLine.replace(/`\s*$/, '');

  if (share(lines, (l) => l.startsWith('\t')) >= 0.6) {
    for (const [i, l] of lines.entries()) if (l.startsWith('\t')) lines[i] = l.slice(1);
    changes.push('a TAB at the start of each line removed');
  }

  // Trailing blanks carry nothing (console-width padding, a space after `Flags : 1 `).
  let padded = 0;
  for (const [i, l] of lines.entries()) {
    const t = trimBlanksEnd(l);
    if (l.length - t.length > 20) padded++;
    lines[i] = t;
  }
  if (padded > 1) changes.push(`console-width padding removed from ${padded} lines`);

  let indent = Infinity;
  for (const l of lines) {
    if (l === '') continue;
    const m = /^ */.exec(l)![0].length;
    if (m < indent) indent = m;
    if (indent === 0) break;
  }
  if (indent !== Infinity && indent > 0) {
    for (const [i, l] of lines.entries()) lines[i] = l.slice(indent);
    changes.push(`a common indentation of ${indent} space${indent > 1 ? 's' : ''} removed`);
  } else {
    // A sentence or two, then an indented markdown code block (four spaces or more on every line).
    const nonBlank = lines.flatMap((l, i) => (l === '' ? [] : [{ i, l }]));
    for (let k = 1; k <= 2 && k < nonBlank.length - 1; k++) {
      const head = nonBlank.slice(0, k);
      // The lines before are prose: not indented, no `Key : value`, no GUID (an hnsdiag block's
      // `Endpoint : <guid>` over its indented keys is output, not a sentence), and a sentence at all —
      // not the `{`/`[` a ConvertTo-Json document opens with, nor the PowerShell prompt or command that
      // printed the output (corpus: hns-endpoint-json…AKS-issue-1367 and …calico-issue-4682,
      // cni-config-azure-vnet…aks-engine-issue-1235: their own indentation was taken for a code block).
      if (!head.every(({ l }) => isProse(l))) break;
      const rest = nonBlank.slice(k);
      const block = Math.min(...rest.map(({ l }) => /^ */.exec(l)![0].length));
      const [from] = rest;
      if (block < 4 || rest.length < 2 || !from) continue;
      for (const { i, l } of rest) lines[i] = l.slice(block);
      changes.push(`a code-block indentation of ${block} spaces removed from line ${from.i + 1} on`);
      break;
    }
  }

  if (changes.length === 0 && padded === 0) return { text: input, changes };
  return { text: (bom ? '\uFEFF' : '') + lines.join('\n'), changes };
}

/** A line of a sentence, as a person writes before a code block ("Here is what HNS has for the pods:"). */
function isProse(line: string): boolean {
  if (/^\s/.test(line) || /\S\s+:\s|[0-9a-f]{8}-[0-9a-f]{4}-/i.test(line)) return false;
  // A PowerShell prompt, a cmdlet (Verb-Noun) or a pipeline: the command, not a sentence.
  if (/^PS [^>]*>|^[A-Z][a-z]+-[A-Z]\w*|\s\|\s?\S/.test(line)) return false;
  // A command with its options (`hnsdiag list endpoints -d`, `vfpctrl /port … /list-rule`).
  if (/^(hnsdiag|vfpctrl|ipconfig|route|netsh|kubectl|crictl|ctr)\b|\s[-/][a-z]/i.test(line)) return false;
  // Three words at least (`{`, `[`, `Networks:` are not sentences).
  return (line.match(/[A-Za-z]{2,}/g)?.length ?? 0) >= 3;
}

/** `line` without its trailing spaces and TABs: a walk back from the end (the regular expression
 * /[ \t]+$/ retries from every blank of a run, quadratic in a long run inside the line). */
function trimBlanksEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return end === line.length ? line : line.slice(0, end);
}
