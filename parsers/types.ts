// Shared vocabulary of every parser. Parsers never throw on bad input: they return what they could
// read plus issues that name the file and the 1-based line, so the rest of a bundle still loads.

export type Severity = 'error' | 'warning' | 'info';

export interface ParseIssue {
  file: string;
  /** 1-based line in the decoded file; 0 when the issue concerns the whole file. */
  line: number;
  severity: Severity;
  message: string;
}

export interface ParseResult<T> {
  value: T;
  issues: ParseIssue[];
}

/** Where an object came from: the bundle-relative file name and the 1-based line of its first line. */
export interface SourceRef {
  file: string;
  line: number;
}

/** Collects issues for one file so parsers do not repeat the file name at every call. */
export class IssueSink {
  readonly issues: ParseIssue[] = [];
  constructor(readonly file: string) {}
  error(line: number, message: string): void {
    this.issues.push({ file: this.file, line, severity: 'error', message });
  }
  warn(line: number, message: string): void {
    this.issues.push({ file: this.file, line, severity: 'warning', message });
  }
  info(line: number, message: string): void {
    this.issues.push({ file: this.file, line, severity: 'info', message });
  }
  ref(line: number): SourceRef {
    return { file: this.file, line };
  }
}
