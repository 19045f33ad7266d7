// hnsportpoolallocs.txt: `(Invoke-HnsRequest -Type portpools -Method GET).PortPoolAllocations |
// ConvertTo-Json -Depth 10`. Its members are not documented anywhere we could read, so values
// are passed through as read, each with its line.

import type { ParseResult } from '../types.ts';
import { readPsJson } from '../json/ps-json.ts';

export interface PortPoolAlloc {
  value: unknown;
  line: number;
}

export function parsePortPoolAllocsTxt(text: string, file = 'hnsportpoolallocs.txt'): ParseResult<PortPoolAlloc[]> {
  const r = readPsJson(text ?? '', file);
  const out: PortPoolAlloc[] = [];
  for (const el of r.value.elements) {
    for (const v of Array.isArray(el.value) ? el.value : [el.value]) out.push({ value: v, line: el.line });
  }
  return { value: out, issues: r.issues };
}
