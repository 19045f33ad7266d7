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

function isBlank(l: string): boolean {
  return l.trim() === '';
}

function share(lines: string[], test: (l: string) => boolean): number {
  let n = 0;
  let of = 0;
  for (const l of lines) {
    if (isBlank(l)) continue;
    of++;
    if (test(l)) n++;
  }
  return of === 0 ? 0 : n / of;
}

/** share(lines, test) === 1, stopping at the first non-blank line that fails. */
function everyNonBlank(lines: string[], test: (l: string) => boolean): boolean {
  let of = 0;
  for (const l of lines) {
    if (isBlank(l)) continue;
    if (!test(l)) return false;
    of++;
  }
  return of > 0;
}

/** Whether at least `k` lines are not blank, counting no further. */
function nonBlankAtLeast(lines: string[], k: number): boolean {
  let n = 0;
  for (const l of lines) if (!isBlank(l) && ++n >= k) return true;
  return k <= 0;
}

const quoted = (l: string): boolean => QUOTES.test(l);
const quotedSpaced = (l: string): boolean => QUOTE_SPACED.test(l);
const tabbed = (l: string): boolean => l.startsWith('\t');

/** Undoes ticket formatting line by line; the line count never changes. */
export function cleanPaste(input: string): PasteCleanup {
  const changes: string[] = [];
  const bom = input.charCodeAt(0) === 0xfeff;
  const body = bom ? input.slice(1) : input;
  const lines = body.split(/\r\n|\n|\r/);
  // Most files were not pasted: each step below first asks the whole text, with one native search,
  // whether any line can need it (a fence needs its three marks, a quote a `>` at a line's start, a
  // TAB or a trailing blank its character), and reads the lines one by one only then.

  let fences = 0;
  if (body.includes('```') || body.includes('~~~')) {
    for (const [i, l] of lines.entries()) {
      if (FENCE.test(l)) {
        lines[i] = '';
        fences++;
      }
    }
  }
  if (fences) changes.push(`${fences} markdown code fence line${fences > 1 ? 's' : ''} ignored`);

  // A blockquote: most lines start with `> ` (at any depth), or every line with `>` (a quote whose
  // marks lost their space). PowerShell's own `>>` continuation prompt and a lone `>cmd` prompt line
  // among other lines do not make a quote.
  // Every line quoted and some mark straight against its text: the marks have no space, and a space
  // after a mark is the line's own indentation.
  const marks = /^ {0,3}>/m.test(body);
  const bare = marks && nonBlankAtLeast(lines, 2) && everyNonBlank(lines, quoted) && lines.some((l) => /^ {0,3}>+[^ >]/.test(l));
  const spaced = marks && !bare && share(lines, quotedSpaced) >= 0.6;
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
  // Taking a backtick off the last line may leave a blank at its end.
  let lastCut = false;
  if (lastLine !== undefined && /(?<!`)`\s*$/.test(lastLine) && !/``\s*$/.test(lastLine)) {
    lines[last] = lastLine.replace(/`\s*$/, '');
    lastCut = true;
  }

  if (body.includes('\t') && share(lines, tabbed) >= 0.6) {
    for (const [i, l] of lines.entries()) if (l.startsWith('\t')) lines[i] = l.slice(1);
    changes.push('a TAB at the start of each line removed');
  }

  // Trailing blanks carry nothing (console-width padding, a space after `Flags : 1 `).
  let padded = 0;
  if (lastCut || /[ \t](?:\r|\n|$)/.test(body)) {
    for (const [i, l] of lines.entries()) {
      const t = trimBlanksEnd(l);
      if (l.length - t.length > 20) padded++;
      lines[i] = t;
    }
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
    // Only the first three lines that are not empty are looked at until the first is prose (most
    // files stop there); the rest of the file is gathered only then.
    let count = 0;
    const firsts: { i: number; l: string }[] = [];
    // Counted up to 4: the check below asks for at most 4 (k < count - 1, k <= 2).
    for (let i = 0; i < lines.length && count < 4; i++) {
      const l = lines[i]!;
      if (l === '') continue;
      if (firsts.length < 3) firsts.push({ i, l });
      count++;
    }
    for (let k = 1; k <= 2 && k < count - 1; k++) {
      const head = firsts.slice(0, k);
      // The lines before are prose: not indented, no `Key : value`, no GUID (an hnsdiag block's
      // `Endpoint : <guid>` over its indented keys is output, not a sentence), and a sentence at all —
      // not the `{`/`[` a ConvertTo-Json document opens with, nor the PowerShell prompt or command that
      // printed the output (corpus: hns-endpoint-json…AKS-issue-1367 and …calico-issue-4682,
      // cni-config-azure-vnet…aks-engine-issue-1235: their own indentation was taken for a code block).
      if (!head.every(({ l }) => isProse(l))) break;
      const rest = lines.flatMap((l, i) => (l === '' || i < (firsts[k]?.i ?? 0) ? [] : [{ i, l }]));
      // A loop, not Math.min(...): spreading a dump's 10⁵+ lines as arguments overflows the stack.
      let block = Infinity;
      for (const { l } of rest) block = Math.min(block, /^ */.exec(l)![0].length);
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
