// Get-NetRoute default table view → NetRoute objects.

import type { ParseResult } from '../types.ts';
import { IssueSink } from '../types.ts';
import { parseCidr } from '../net/ip.ts';
import { intCell, mapColumns } from '../ps/columns.ts';
import type { PsTable } from '../ps/table.ts';
import type { NetRoute } from './types.ts';

const COLUMNS = ['ifIndex', 'DestinationPrefix', 'NextHop', 'RouteMetric', 'ifMetric', 'PolicyStore'];

export function netRoutesFromTable(table: PsTable, file: string): ParseResult<NetRoute[]> {
  const sink = new IssueSink(file);
  const cols = mapColumns(table.columns, COLUMNS);
  for (const need of ['ifIndex', 'DestinationPrefix', 'NextHop']) {
    if (!cols.has(need)) sink.warn(table.headerLine, `Get-NetRoute table has no ${need} column`);
  }
  const mapped = new Set(cols.values());
  const out: NetRoute[] = [];
  for (const row of table.rows) {
    const get = (k: string) => { const c = cols.get(k); return c === undefined ? undefined : row.cells[c]; };
    const ifIndex = intCell(get('ifIndex'));
    if (ifIndex === undefined) {
      sink.warn(row.line, `Get-NetRoute row without a numeric ifIndex ("${get('ifIndex') ?? ''}"); skipped`);
      continue;
    }
    const destinationPrefix = get('DestinationPrefix') ?? '';
    if (parseCidr(destinationPrefix) === null) sink.warn(row.line, `DestinationPrefix "${destinationPrefix}" is not a prefix`);
    const r: NetRoute = { ifIndex, destinationPrefix, nextHop: get('NextHop') ?? '', truncated: row.truncated, extra: {}, src: row.src };
    const rm = intCell(get('RouteMetric')); if (rm !== undefined) r.routeMetric = rm;
    const im = intCell(get('ifMetric')); if (im !== undefined) r.ifMetric = im;
    const ps = get('PolicyStore'); if (ps !== undefined && ps !== '') r.policyStore = ps;
    for (const [k, v] of Object.entries(row.cells)) if (!mapped.has(k) && v !== '') r.extra[k] = v;
    out.push(r);
  }
  return { value: out, issues: sink.issues };
}
