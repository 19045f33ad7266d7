// Maps string offsets to 1-based line numbers. Built once per text (one indexOf pass) so that the
// scanners can report lines for any offset without re-counting newlines from the start each time.

export class LineIndex {
  private readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    let i = text.indexOf('\n');
    while (i !== -1) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** 1-based line containing `offset` (offsets past the end map to the last line). */
  lineOf(offset: number): number {
    const s = this.starts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      const at = s[mid];
      if (at !== undefined && at <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Offset of the first character of 1-based `line`. */
  startOf(line: number): number {
    if (line < 1) return 0;
    if (line > this.starts.length) return this.text.length;
    return this.starts[line - 1] ?? this.text.length;
  }

  /** Text of 1-based `line` without its line terminator (CR of CRLF included in the strip). */
  lineText(line: number): string {
    const start = this.startOf(line);
    const next = line < this.starts.length ? this.startOf(line + 1) - 1 : this.text.length;
    let end = next;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return this.text.slice(start, end);
  }
}
