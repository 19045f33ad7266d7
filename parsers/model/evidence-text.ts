// Line text for evidence: the decoded text of small files (split once, on first use) and, for the
// VFP dumps, their bytes read again on demand (a line's start comes from the index's newline checkpoints, so no line
// table of a 900 MB dump is ever built).
import type { ParsedFile } from '../bundle/parsed-file.ts';
import type { EvidenceText, VfpStore } from './types.ts';
import { lineFrom } from '../vfp/byte-source.ts';


export function evidenceText(parsed: ParsedFile[], vfp: VfpStore | null): EvidenceText {
  const texts = new Map<string, string>();
  for (const p of parsed) if (p.text !== undefined) texts.set(p.name, p.text);
  const split = new Map<string, string[]>();
  const linesOf = (file: string): string[] | undefined => {
    let l = split.get(file);
    if (!l) {
      const t = texts.get(file);
      if (t === undefined) return undefined;
      l = t.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
      split.set(file, l);
    }
    return l;
  };
  const vfpFiles = new Map((vfp?.files ?? []).map((f) => [f.file, f]));
  // Walks and reports quote the same rule lines again and again (every walk through a port, the
  // report of each): a line's start is looked up once per file.
  const starts = new Map<string, Map<number, number | undefined>>();
  const vfpLineStart = (f: VfpStore['files'][number], line: number): number | undefined => {
    let known = starts.get(f.file);
    if (!known) starts.set(f.file, (known = new Map()));
    if (known.has(line)) return known.get(line);
    const start = f.index.lineStart(line);
    // Bounded: a session that quotes more lines than this starts over rather than grow.
    if (known.size >= 100_000) known.clear();
    known.set(line, start);
    return start;
  };
  // Read again from where the dump's bytes are (memory, or the file on disk): its first 2,000 chars.
  const vfpLineAt = (f: VfpStore['files'][number], start: number): { text: string; next: number } => lineFrom(f.bytes, start, 2000);
  return {
    has: (file) => texts.has(file) || vfpFiles.has(file),
    lineText(file, line) {
      const l = linesOf(file);
      if (l) return line >= 1 && line <= l.length ? l[line - 1] : undefined;
      const f = vfpFiles.get(file);
      if (!f) return undefined;
      const start = vfpLineStart(f, line);
      return start === undefined ? undefined : vfpLineAt(f, start).text;
    },
    find(file, fromLine, test, maxLines = 2000) {
      const l = linesOf(file);
      if (l) {
        for (let i = Math.max(1, fromLine); i <= l.length && i < fromLine + maxLines; i++) {
          const text = l[i - 1];
          if (text !== undefined && test(text)) return { line: i, text };
        }
        return undefined;
      }
      const f = vfpFiles.get(file);
      if (!f) return undefined;
      let pos = vfpLineStart(f, Math.max(1, fromLine));
      if (pos === undefined) return undefined;
      for (let n = 0; n < maxLines && pos < f.bytes.size; n++) {
        const { text, next } = vfpLineAt(f, pos);
        if (test(text)) return { line: fromLine + n, text };
        pos = next;
      }
      return undefined;
    },
  };
}
