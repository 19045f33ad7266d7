// routes.txt: `route print` (default compartment only), then `Get-NetRoute -IncludeAllCompartments`.

import { fixedTable } from '../psformat.ts';
import { ipToInt } from '../net.ts';
import type { Adapter, GeneratedNode, Ipv4Route } from '../types.ts';
import { ifMetricOf } from './ip.ts';

const SEP = '='.repeat(75);

function ifMetric(node: GeneratedNode, r: Ipv4Route): number {
  if (r.ifIndex === 1) return 75;
  for (const c of node.compartments) for (const a of c.adapters) if (a.ifIndex === r.ifIndex) return ifMetricOf(a);
  return 15;
}

export function sortedHostRoutes(node: GeneratedNode): Ipv4Route[] {
  return node.routes
    .filter((r) => r.compartmentId === 1)
    .map((r, i) => ({ r, i }))
    .sort((a, b) => ipToInt(a.r.dest) - ipToInt(b.r.dest) || a.r.prefixLen - b.r.prefixLen || a.r.metric - b.r.metric || a.i - b.i)
    .map((x) => x.r);
}

export function routePrint(node: GeneratedNode): string {
  const host = node.compartments.find((c) => c.id === 1)!;
  let s = `${SEP}\nInterface List\n`;
  for (const a of [...host.adapters].sort((x, y) => x.ifIndex - y.ifIndex)) {
    s += `${String(a.ifIndex).padStart(3)}...${a.mac.toLowerCase().replace(/-/g, ' ')} ......${a.description}\n`;
  }
  s += '  1...........................Software Loopback Interface 1\n';
  s += `${SEP}\n\nIPv4 Route Table\n${SEP}\nActive Routes:\n`;
  s += 'Network Destination        Netmask          Gateway       Interface  Metric\n';
  for (const r of sortedHostRoutes(node)) {
    s += `${r.dest.padStart(17)}${r.mask.padStart(17)}${r.gateway.padStart(17)}${r.iface.padStart(17)}${String(r.metric).padStart(7)}\n`;
  }
  s += `${SEP}\nPersistent Routes:\n  None\n\nIPv6 Route Table\n${SEP}\nActive Routes:\n If Metric Network Destination      Gateway\n`;
  const v6 = (idx: number, metric: number, dest: string) => {
    const head = `${String(idx).padStart(3)}${String(metric).padStart(7)} `;
    return dest.length > 24 ? `${head}${dest}\n${' '.repeat(36)}On-link\n` : `${head}${dest.padEnd(25)}On-link\n`;
  };
  s += v6(1, 331, '::1/128');
  for (const a of host.adapters) s += v6(a.ifIndex, 256 + ifMetricOf(a), 'fe80::/64');
  for (const a of host.adapters) s += v6(a.ifIndex, 256 + ifMetricOf(a), `${a.linkLocal}/128`);
  s += v6(1, 331, 'ff00::/8');
  for (const a of host.adapters) s += v6(a.ifIndex, 256 + ifMetricOf(a), 'ff00::/8');
  s += `${SEP}\nPersistent Routes:\n  None\n`;
  return s;
}

export function getNetRoute(node: GeneratedNode): string {
  const rows: string[][] = [];
  const byCompartment = new Map<number, Ipv4Route[]>();
  for (const r of node.routes) {
    const l = byCompartment.get(r.compartmentId) ?? [];
    l.push(r);
    byCompartment.set(r.compartmentId, l);
  }
  const adapters = new Map<number, Adapter>();
  for (const c of node.compartments) for (const a of c.adapters) adapters.set(a.ifIndex, a);
  for (const [cid, list] of [...byCompartment.entries()].sort((a, b) => b[0] - a[0])) {
    const sorted = [...list].sort((a, b) => ipToInt(b.dest) - ipToInt(a.dest) || b.prefixLen - a.prefixLen);
    for (const r of sorted) {
      const im = ifMetric(node, r);
      rows.push([String(r.ifIndex), `${r.dest}/${r.prefixLen}`, r.gateway === 'On-link' ? '0.0.0.0' : r.gateway, String(r.metric - im), String(im), 'ActiveStore']);
    }
    if (cid === 1) {
      for (const a of node.compartments[0].adapters) rows.push([String(a.ifIndex), 'ff00::/8', '::', '256', String(ifMetricOf(a)), 'ActiveStore']);
      for (const a of node.compartments[0].adapters) rows.push([String(a.ifIndex), 'fe80::/64', '::', '256', String(ifMetricOf(a)), 'ActiveStore']);
      rows.push(['1', '::1/128', '::', '256', '75', 'ActiveStore']);
    }
  }
  return fixedTable(['ifIndex', 'DestinationPrefix', 'NextHop', 'RouteMetric', 'ifMetric', 'PolicyStore'], rows, [7, 46, 40, 11, 8, 11], [true, false, false, true, true, false]);
}

export function routesTxt(node: GeneratedNode): string {
  return routePrint(node) + getNetRoute(node);
}
