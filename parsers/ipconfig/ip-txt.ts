// ip.txt = `ipconfig /allcompartments /all`, then `Get-NetIPAddress -IncludeAllCompartments` (list
// view), then `Get-NetIPInterface -IncludeAllCompartments` (table view), all appended with `>>`.
// Older bundles (before 2021-03) hold only the ipconfig part. Parts are found by content.

import type { ParseIssue, ParseResult } from '../types.ts';
import { isDashRule, splitLines } from '../ps/lines.ts';
import { parsePsList } from '../ps/list.ts';
import { parsePsTable } from '../ps/table.ts';
import { parseIpconfigLines } from './ipconfig.ts';
import type { NetIpAddress, NetIpInterface } from './net-ip.ts';
import { netIpAddressesFromList, netIpInterfacesFromTable } from './net-ip.ts';
import type { Compartment, IpconfigLanguage } from './types.ts';

export interface IpTxtResult {
  compartments: Compartment[];
  language: IpconfigLanguage;
  netIpAddresses: NetIpAddress[];
  netIpInterfaces: NetIpInterface[];
}

const LIST_START_RE = /^IPAddress\s+:/;
const TABLE_HEADER_RE = /^\s*ifIndex\s+InterfaceAlias\b/;

export function findNetIpAddressStart(lines: readonly string[], from = 0): number {
  for (let i = from, line = lines[i]; line !== undefined; line = lines[++i]) if (LIST_START_RE.test(line)) return i;
  return -1;
}

export function findNetIpInterfaceStart(lines: readonly string[], from = 0): number {
  for (let i = from, line = lines[i]; line !== undefined; line = lines[++i]) {
    if (!TABLE_HEADER_RE.test(line)) continue;
    for (let k = i + 1; k < lines.length && k <= i + 8; k++) if (isDashRule(lines[k])) return i;
  }
  return -1;
}

export function parseIpTxt(text: string, file: string): ParseResult<IpTxtResult> {
  const issues: ParseIssue[] = [];
  const lines = splitLines(typeof text === 'string' ? text : '');
  const listStart = findNetIpAddressStart(lines);
  const tableStart = findNetIpInterfaceStart(lines, listStart < 0 ? 0 : listStart);
  const ipconfigEnd = [listStart, tableStart].filter((x) => x >= 0).reduce((a, b) => Math.min(a, b), lines.length);

  const ipc = parseIpconfigLines(lines, 0, ipconfigEnd, file);
  issues.push(...ipc.issues);

  let netIpAddresses: NetIpAddress[] = [];
  if (listStart >= 0) {
    const list = parsePsList(lines.slice(0, tableStart >= 0 ? tableStart : lines.length), listStart, file);
    issues.push(...list.issues);
    const addrs = netIpAddressesFromList(list.value.records, file);
    issues.push(...addrs.issues);
    netIpAddresses = addrs.value;
    const stop = tableStart >= 0 ? tableStart : lines.length;
    for (let k = list.value.endIndex; k < stop; k++) {
      if ((lines[k] ?? '').trim() !== '') {
        issues.push({ file, line: k + 1, severity: 'info', message: 'text after the Get-NetIPAddress list not understood; skipped' });
        break;
      }
    }
  }

  let netIpInterfaces: NetIpInterface[] = [];
  if (tableStart >= 0) {
    const table = parsePsTable(lines, tableStart, file);
    issues.push(...table.issues);
    const ifs = netIpInterfacesFromTable(table.value, file);
    issues.push(...ifs.issues);
    netIpInterfaces = ifs.value;
  }

  if (ipc.value.compartments.length === 0 && netIpAddresses.length === 0 && netIpInterfaces.length === 0) {
    issues.push({ file, line: 0, severity: 'warning', message: 'no ipconfig, Get-NetIPAddress or Get-NetIPInterface output found' });
  }
  return {
    value: { compartments: ipc.value.compartments, language: ipc.value.language, netIpAddresses, netIpInterfaces },
    issues,
  };
}
