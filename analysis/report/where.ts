// How a report names the place a fact comes from. Line 0 is the parsers' convention for "the whole
// file" (parsers/types.ts: an issue about the file as a whole; analysis/checks/context.ts `absent`:
// evidence that something is missing from a file), so it is shown as the file's name alone, never as
// `file:0`, which reads as a line that does not exist.

/** `ip.txt:12`, or `ip.txt` when the line is 0 (the whole file). */
export function sourceRef(file: string, line: number): string {
  return line > 0 ? `${file}:${line}` : file;
}
