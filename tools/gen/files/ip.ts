// ip.txt: `ipconfig /allcompartments /all`, then `Get-NetIPAddress -IncludeAllCompartments` (list view),
// then `Get-NetIPInterface -IncludeAllCompartments` (table view).

import { fixedTable } from '../psformat.ts';
import { maskOf } from '../net.ts';
import type { Adapter, GeneratedNode } from '../types.ts';

const BANNER = '='.repeat(78);

/** ipconfig's label column: the label, then " ." filler on even offsets, 33 columns wide. */
export function ipcLabel(label: string): string {
  const special: Record<string, string> = {
    'Primary Dns Suffix': 'Primary Dns Suffix  . . . . . . . ',
    'Connection-specific DNS Suffix': 'Connection-specific DNS Suffix  . ',
  };
  let s = special[label];
  if (!s) {
    s = label;
    for (let i = label.length; i < 33; i++) s += i % 2 === 0 ? '.' : ' ';
    s += ' ';
  }
  return `   ${s}: `;
}

const CONT = ' '.repeat(39);

function kv(label: string, values: string | string[]): string {
  const vs = Array.isArray(values) ? values : [values];
  if (vs.length === 0) return ipcLabel(label) + '\n';
  return ipcLabel(label) + vs[0] + '\n' + vs.slice(1).map((v) => CONT + v + '\n').join('');
}

function fmtDate(d: Date): string {
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const h = d.getUTCHours();
  const hh = h % 12 === 0 ? 12 : h % 12;
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  const ss = String(d.getUTCSeconds()).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${months[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()} ${hh}:${mm}:${ss} ${h < 12 ? 'AM' : 'PM'}`;
}

function adapterBlock(node: GeneratedNode, a: Adapter): string {
  let s = `\nEthernet adapter ${a.name}:\n\n`;
  s += kv('Connection-specific DNS Suffix', a.dnsSuffix);
  s += kv('Description', a.description);
  s += kv('Physical Address', a.mac);
  s += kv('DHCP Enabled', a.dhcp ? 'Yes' : 'No');
  s += kv('Autoconfiguration Enabled', 'Yes');
  s += kv('Link-local IPv6 Address', `${a.linkLocal}%${a.ifIndex}(Preferred) `);
  if (a.ipv4) {
    s += kv('IPv4 Address', `${a.ipv4}(Preferred) `);
    s += kv('Subnet Mask', maskOf(a.prefixLength!));
  }
  if (a.dhcp) {
    s += kv('Lease Obtained', fmtDate(new Date(node.collectedAt.getTime() - 3 * 3600_000)));
    s += kv('Lease Expires', fmtDate(new Date(node.collectedAt.getTime() + 4_294_967_000)));
  }
  s += kv('Default Gateway', a.gateway ?? '');
  if (a.dhcp) s += kv('DHCP Server', '168.63.129.16');
  s += kv('DHCPv6 IAID', String(100663296 + a.ifIndex * 4099));
  s += kv('DHCPv6 Client DUID', '00-01-00-01-2D-C4-7E-1A-00-0D-3A-5B-9C-21');
  s += kv('DNS Servers', a.dnsServers.length ? a.dnsServers : ['fec0:0:0:ffff::1%1', 'fec0:0:0:ffff::2%1', 'fec0:0:0:ffff::3%1']);
  s += kv('NetBIOS over Tcpip', a.compartmentId === 1 ? 'Enabled' : 'Disabled');
  if (a.compartmentId !== 1) s += '   Connection-specific DNS Suffix Search List :\n' + [node.dnsSuffix, 'svc.cluster.local', 'cluster.local'].map((v) => CONT + v + '\n').join('');
  return s;
}

export function ipconfigText(node: GeneratedNode): string {
  let s = '\nWindows IP Configuration\n\n';
  for (const c of node.compartments) {
    s += `${BANNER}\nNetwork Information for Compartment ${c.id}${c.id === 1 ? ' (ACTIVE)' : ''}\n${BANNER}\n\n`;
    s += kv('Host Name', node.hostName);
    s += kv('Primary Dns Suffix', '');
    s += kv('Node Type', 'Hybrid');
    s += kv('IP Routing Enabled', 'No');
    s += kv('WINS Proxy Enabled', 'No');
    s += kv('DNS Suffix Search List', c.id === 1 ? ['reddog.microsoft.com'] : [node.dnsSuffix, 'svc.cluster.local', 'cluster.local']);
    for (const a of c.adapters) s += adapterBlock(node, a);
    s += '\n';
  }
  return s;
}

export function ifMetricOf(a: { name: string }): number {
  if (a.name.startsWith('Loopback')) return 75;
  if (a.name === 'vEthernet (nat)') return 5000;
  return 15;
}

export function getNetIPAddress(node: GeneratedNode): string {
  const recs: string[][] = [];
  const rec = (ip: string, a: { ifIndex: number; name: string }, fam: string, len: number, prefixOrigin: string, suffixOrigin: string, dhcp: boolean) => {
    const life = dhcp ? '23:12:44' : 'Infinite ([TimeSpan]::MaxValue)';
    recs.push([
      `IPAddress         : ${ip}`,
      `InterfaceIndex    : ${a.ifIndex}`,
      `InterfaceAlias    : ${a.name}`,
      `AddressFamily     : ${fam}`,
      `Type              : Unicast`,
      `PrefixLength      : ${len}`,
      `PrefixOrigin      : ${prefixOrigin}`,
      `SuffixOrigin      : ${suffixOrigin}`,
      `AddressState      : Preferred`,
      `ValidLifetime     : ${life}`,
      `PreferredLifetime : ${life}`,
      `SkipAsSource      : False`,
      `PolicyStore       : ActiveStore`,
    ]);
  };
  const loop = { ifIndex: 1, name: 'Loopback Pseudo-Interface 1' };
  for (const c of node.compartments) {
    for (const a of c.adapters) rec(`${a.linkLocal}%${a.ifIndex}`, a, 'IPv6', 64, 'WellKnown', 'Link', false);
    if (c.id === 1) rec('::1', loop, 'IPv6', 128, 'WellKnown', 'WellKnown', false);
    for (const a of c.adapters) if (a.ipv4) rec(a.ipv4, a, 'IPv4', a.prefixLength!, a.dhcp ? 'Dhcp' : 'Manual', a.dhcp ? 'Dhcp' : 'Manual', a.dhcp);
    if (c.id === 1) rec('127.0.0.1', loop, 'IPv4', 8, 'WellKnown', 'WellKnown', false);
  }
  return '\n' + recs.map((r) => '\n' + r.join('\n') + '\n').join('') + '\n\n';
}

export function getNetIPInterface(node: GeneratedNode): string {
  const rows: string[][] = [];
  const loop = { ifIndex: 1, name: 'Loopback Pseudo-Interface 1', mtu: 4294967295 };
  for (const fam of ['IPv6', 'IPv4']) {
    for (const c of node.compartments) {
      for (const a of c.adapters) rows.push([String(a.ifIndex), a.name, fam, String(a.mtu), String(ifMetricOf(a)), a.dhcp && fam === 'IPv4' ? 'Enabled' : 'Disabled', 'Connected', 'ActiveStore']);
    }
    rows.push(['1', loop.name, fam, String(loop.mtu), '75', 'Disabled', 'Connected', 'ActiveStore']);
  }
  return fixedTable(
    ['ifIndex', 'InterfaceAlias', 'AddressFamily', 'NlMtu(Bytes)', 'InterfaceMetric', 'Dhcp', 'ConnectionState', 'PolicyStore'],
    rows,
    [7, 31, 13, 12, 15, 8, 15, 11],
    [true, false, false, true, true, false, false, false],
  );
}

export function ipTxt(node: GeneratedNode): string {
  return ipconfigText(node) + getNetIPAddress(node) + getNetIPInterface(node);
}
