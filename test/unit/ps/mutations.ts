// Shared fast-check mutations for the text parsers: truncate, delete/duplicate lines, inject junk.
import fc from 'fast-check';
import { expect } from 'vitest';
import type { ParseIssue } from '../../../parsers/types.ts';

export type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'delete'; at: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'junk'; at: number; junk: string }
  | { kind: 'swapEol' };

export const mutationArb: fc.Arbitrary<Mutation[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('junk' as const), at: fc.nat(), junk: fc.string({ unit: 'binary', maxLength: 40 }) }),
    fc.record({ kind: fc.constant('swapEol' as const) }),
  ),
  { minLength: 1, maxLength: 6 },
);

export function mutate(text: string, ms: Mutation[]): string {
  let t = text;
  for (const m of ms) {
    const lines = t.split('\n');
    switch (m.kind) {
      case 'truncate': t = t.slice(0, m.at % (t.length + 1)); break;
      case 'delete': lines.splice(m.at % Math.max(1, lines.length), 1); t = lines.join('\n'); break;
      case 'duplicate': { const i = m.at % Math.max(1, lines.length); lines.splice(i, 0, lines[i] ?? ''); t = lines.join('\n'); break; }
      case 'junk': { const i = m.at % (t.length + 1); t = t.slice(0, i) + m.junk + t.slice(i); break; }
      case 'swapEol': t = t.includes('\r\n') ? t.replace(/\r\n/g, '\n') : t.replace(/\n/g, '\r\n'); break;
    }
  }
  return t;
}

export function expectWellFormedIssues(issues: ParseIssue[], file: string): void {
  for (const i of issues) {
    expect(i.file).toBe(file);
    expect(Number.isInteger(i.line) && i.line >= 0).toBe(true);
    expect(['error', 'warning', 'info']).toContain(i.severity);
  }
}
