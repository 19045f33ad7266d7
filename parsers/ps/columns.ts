// Maps the column names of a rendered table to the property names a caller expects. Narrow consoles
// cut or wrap header names (`if` for ifMetric, `PolicySto` …), so a header that is a prefix of
// exactly one expected name still maps to it.

import type { PsTableColumn } from './table.ts';
import { readInt } from '../text/numbers.ts';

export function mapColumns(columns: readonly PsTableColumn[], expected: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const e of expected) {
    const c = columns.find((col) => col.name.toLowerCase() === e.toLowerCase());
    if (c) { out.set(e, c.name); used.add(c.name); }
  }
  for (const col of columns) {
    if (used.has(col.name)) continue;
    const h = col.name.toLowerCase().replace(/(\.\.\.|\u2026)$/, '');
    if (h.length < 2) continue;
    const cands = expected.filter((e) => !out.has(e) && e.toLowerCase().startsWith(h));
    const [only, other] = cands;
    if (only !== undefined && other === undefined) { out.set(only, col.name); used.add(col.name); }
  }
  return out;
}

/** Integer cell or undefined (blank, truncated, or not a number). */
export function intCell(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  // Strict (parsers/text/numbers.ts): `-0`, and digits past what a number holds exactly, are no value.
  return readInt(v, { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).value;
}
