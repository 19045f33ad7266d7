// Get-NetIPAddress (Format-List) and Get-NetIPInterface (Format-Table) objects as rendered in ip.txt.

import type { ParseResult, SourceRef } from '../types.ts';
import { IssueSink } from '../types.ts';
import { intCell, mapColumns } from '../ps/columns.ts';
import type { PsListRecord } from '../ps/list.ts';
import type { PsTable } from '../ps/table.ts';

export interface NetIpAddress {
  /** Without the `%zone` suffix PowerShell prints for link-local addresses. */
  ipAddress: string;
  zone?: string;
  interfaceIndex?: number;
  interfaceAlias?: string;
  addressFamily?: string;
  type?: string;
  prefixLength?: number;
  prefixOrigin?: string;
  suffixOrigin?: string;
  addressState?: string;
  validLifetime?: string;
  preferredLifetime?: string;
  skipAsSource?: boolean;
  policyStore?: string;
  extra: Record<string, string>;
  src: SourceRef;
}

export interface NetIpInterface {
  ifIndex?: number;
  interfaceAlias: string;
  addressFamily?: string;
  nlMtu?: number;
  interfaceMetric?: number;
  dhcp?: string;
  connectionState?: string;
  policyStore?: string;
  /** Some cell was cut with `...` (typically a long InterfaceAlias). */
  truncated: boolean;
  extra: Record<string, string>;
  src: SourceRef;
}

const ADDRESS_KEYS: Record<string, keyof NetIpAddress> = {
  InterfaceAlias: 'interfaceAlias', AddressFamily: 'addressFamily', Type: 'type', PrefixOrigin: 'prefixOrigin',
  SuffixOrigin: 'suffixOrigin', AddressState: 'addressState', ValidLifetime: 'validLifetime',
  PreferredLifetime: 'preferredLifetime', PolicyStore: 'policyStore',
};

export function netIpAddressesFromList(records: readonly PsListRecord[], file: string): ParseResult<NetIpAddress[]> {
  const sink = new IssueSink(file);
  const out: NetIpAddress[] = [];
  for (const r of records) {
    const ip = r.fields['IPAddress'];
    if (ip === undefined || ip.trim() === '') {
      sink.warn(r.line, 'Get-NetIPAddress record without IPAddress; skipped');
      continue;
    }
    const zm = /^(.*?)%(\S+)$/.exec(ip.trim());
    const a: NetIpAddress = { ipAddress: zm?.[1] ?? ip.trim(), extra: Object.create(null) as Record<string, string>, src: r.src };
    if (zm) a.zone = zm[2];
    for (const [k, v] of Object.entries(r.fields)) {
      if (k === 'IPAddress') continue;
      // Own keys only: a record's `constructor` or `__proto__` is a field like any other, not a name
      // inherited from Object.
      const named = Object.hasOwn(ADDRESS_KEYS, k) ? ADDRESS_KEYS[k] : undefined;
      if (k === 'InterfaceIndex' || k === 'PrefixLength') {
        const n = intCell(v);
        if (n === undefined) { a.extra[k] = v; sink.warn(r.fieldLines[k] ?? r.line, `${k} "${v}" is not a number`); }
        else if (k === 'InterfaceIndex') a.interfaceIndex = n;
        else a.prefixLength = n;
      } else if (k === 'SkipAsSource') {
        if (/^(true|false)$/i.test(v)) a.skipAsSource = /^true$/i.test(v);
        else a.extra[k] = v;
      } else if (named !== undefined) {
        (a as unknown as Record<string, string>)[named] = v;
      } else {
        a.extra[k] = v;
      }
    }
    out.push(a);
  }
  return { value: out, issues: sink.issues };
}

const IFACE_COLUMNS = ['ifIndex', 'InterfaceAlias', 'AddressFamily', 'NlMtu(Bytes)', 'InterfaceMetric', 'Dhcp', 'ConnectionState', 'PolicyStore'];

export function netIpInterfacesFromTable(table: PsTable, file: string): ParseResult<NetIpInterface[]> {
  const sink = new IssueSink(file);
  const cols = mapColumns(table.columns, IFACE_COLUMNS);
  const get = (cells: Record<string, string>, k: string) => {
    const c = cols.get(k);
    return c === undefined ? undefined : cells[c];
  };
  const mapped = new Set(cols.values());
  const out: NetIpInterface[] = [];
  for (const row of table.rows) {
    const ifIndexText = get(row.cells, 'ifIndex');
    const ifIndex = intCell(ifIndexText);
    if (ifIndexText !== undefined && ifIndex === undefined) sink.warn(row.line, `ifIndex "${ifIndexText}" is not a number`);
    const opt = (k: string) => { const v = get(row.cells, k); return v === undefined || v === '' ? undefined : v; };
    const it: NetIpInterface = { interfaceAlias: get(row.cells, 'InterfaceAlias') ?? '', truncated: row.truncated, extra: {}, src: row.src };
    if (ifIndex !== undefined) it.ifIndex = ifIndex;
    const af = opt('AddressFamily'); if (af !== undefined) it.addressFamily = af;
    const mtu = intCell(get(row.cells, 'NlMtu(Bytes)')); if (mtu !== undefined) it.nlMtu = mtu;
    const met = intCell(get(row.cells, 'InterfaceMetric')); if (met !== undefined) it.interfaceMetric = met;
    const dhcp = opt('Dhcp'); if (dhcp !== undefined) it.dhcp = dhcp;
    const cs = opt('ConnectionState'); if (cs !== undefined) it.connectionState = cs;
    const ps = opt('PolicyStore'); if (ps !== undefined) it.policyStore = ps;
    for (const [k, v] of Object.entries(row.cells)) if (!mapped.has(k) && v !== '') it.extra[k] = v;
    out.push(it);
  }
  return { value: out, issues: sink.issues };
}
