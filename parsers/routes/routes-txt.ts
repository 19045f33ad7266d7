// routes.txt = `route print`, then `Get-NetRoute -IncludeAllCompartments` (table) appended with `>>`.
// Bundles before 2021-03 have only route print; a file saved by hand may hold only Get-NetRoute,
// or a Markdown copy of it. The Get-NetRoute part is found by its header, not by position.

import type { ParseIssue, ParseResult } from '../types.ts';
import { isDashRule, splitLines } from '../ps/lines.ts';
import { parseMarkdownTable } from '../ps/markdown-table.ts';
import { parsePsTable } from '../ps/table.ts';
import { netRoutesFromTable } from './net-route.ts';
import { parseRoutePrintLines } from './route-print.ts';
import { routePrintRows } from './route-print-rows.ts';
import type { NetRoute, RoutesResult } from './types.ts';

const HEADER_RE = /^\s*ifIndex\s+DestinationPrefix\b/;
const MD_HEADER_RE = /^\s*\|\s*ifIndex\s*\|\s*DestinationPrefix\s*\|/;

/** 0-based index of the next Get-NetRoute table header at or after `from`, or -1. */
export function findNetRouteStart(lines: readonly string[], from = 0): number {
  for (let i = from, line = lines[i]; line !== undefined; line = lines[++i]) {
    if (MD_HEADER_RE.test(line)) return i;
    if (!HEADER_RE.test(line)) continue;
    for (let k = i + 1; k < lines.length && k <= i + 8; k++) if (isDashRule(lines[k])) return i;
  }
  return -1;
}

export function parseRoutesTxt(text: string, file: string): ParseResult<RoutesResult> {
  const issues: ParseIssue[] = [];
  const lines = splitLines(typeof text === 'string' ? text : '');
  const first = findNetRouteStart(lines);
  const rp = parseRoutePrintLines(lines, 0, first < 0 ? lines.length : first, file);
  issues.push(...rp.issues);

  const netRoutes: NetRoute[] = [];
  for (let at = first; at >= 0; ) {
    const md = MD_HEADER_RE.test(lines[at] ?? '');
    const table = md ? parseMarkdownTable(lines, at, file) : parsePsTable(lines, at, file);
    issues.push(...table.issues);
    const routes = netRoutesFromTable(table.value, file);
    issues.push(...routes.issues);
    netRoutes.push(...routes.value);
    at = findNetRouteStart(lines, Math.max(table.value.endIndex, at + 1));
  }

  const v = rp.value;
  if (routePrintRows(v) + netRoutes.length === 0) {
    issues.push({ file, line: 0, severity: 'warning', message: 'no route print or Get-NetRoute output found' });
  }
  return { value: { ...rp.value, netRoutes }, issues };
}
