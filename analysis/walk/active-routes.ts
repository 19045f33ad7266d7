// The node's active routes as the walk reads them. `route print` (collectlogs' routes.txt) is the host
// compartment's table; a routes.txt saved by hand may hold only `Get-NetRoute` (parsers/routes: the corpus
// has one from kubernetes-sigs/sig-windows-tools#215), and then its rows ARE the table — reading none would
// make every packet leaving the node "dropped: no route". Get-NetRoute's rows are used only when the file
// has no route print at all: collectlogs prints `Get-NetRoute -IncludeAllCompartments` beside route print,
// and those rows mix the pods' compartments into the host's (the default columns do not say which is which).
// Windows ranks routes by RouteMetric + InterfaceMetric (learn.microsoft.com, "An explanation of the
// Automatic Metric feature for IPv4 routes"; route print prints that sum), so the sum is the metric here.
// Get-NetRoute lists the active store beside the persistent one (PolicyStore column; `-PolicyStore`
// in learn.microsoft.com's Get-NetRoute reference): a persistent row is what the node would program
// at its next start, not what it routes by now, so only active rows count when the file has any.
// Its default columns name an interface by index only; the interface's address is the node's own
// address among the on-link /32 rows Windows adds for each of its addresses (the broadcast's /32
// is on-link too, so an address is taken only when ipconfig lists it as the host's).
import type { Ipv4Route, Ipv6Route, NetRoute, RoutesResult } from '../../parsers/routes/types.ts';
import { isIpv4, isIpv6, prefixToMask } from '../../parsers/net/ip.ts';
import { routePrintRows } from '../../parsers/routes/route-print-rows.ts';

/** Whether routes.txt holds a `route print` (any section, any row): then it is the table, whole. */
const hasRoutePrint = (r: RoutesResult): boolean => routePrintRows(r) > 0;

function split(x: NetRoute): { destination: string; bits: number } | undefined {
  const slash = x.destinationPrefix.lastIndexOf('/');
  if (slash < 0) return undefined;
  const bits = Number(x.destinationPrefix.slice(slash + 1));
  return Number.isInteger(bits) ? { destination: x.destinationPrefix.slice(0, slash), bits } : undefined;
}

/** Get-NetRoute's rows the node routes by: the active store's (all rows when no row says which store). */
function activeRows(r: RoutesResult): NetRoute[] {
  const active = r.netRoutes.filter((x) => x.policyStore === undefined || /^active/i.test(x.policyStore));
  return active.some((x) => x.policyStore !== undefined) ? active : r.netRoutes;
}

/**
 * Each interface index's own IPv4 address: an on-link /32 row naming one of the host's addresses (the
 * first printed when an interface has several, as route print names one address per row).
 */
function interfaceAddresses(rows: NetRoute[], hostAddrs: ReadonlySet<string>): Map<number, string> {
  const out = new Map<number, string>();
  for (const x of rows) {
    const d = split(x);
    if (d && d.bits === 32 && x.nextHop === '0.0.0.0' && hostAddrs.has(d.destination) && !out.has(x.ifIndex)) out.set(x.ifIndex, d.destination);
  }
  return out;
}

/** How a walk names a route's interface: its address, else its index (Get-NetRoute without ipconfig's match). */
export const interfaceText = (r: Ipv4Route): string => r.interface ?? (r.ifIndex !== undefined ? `interface index ${r.ifIndex}` : 'an interface the bundle does not name');

const metricOf = (x: NetRoute): number | undefined => (x.routeMetric === undefined ? undefined : x.routeMetric + (x.ifMetric ?? 0));

/**
 * The IPv4 active routes: route print's, else (no route print in the file) Get-NetRoute's active IPv4
 * rows, each with its interface's address where `hostAddrs` (the host's addresses from ipconfig) names it.
 */
export function activeIpv4(r: RoutesResult, hostAddrs: ReadonlySet<string> = new Set()): Ipv4Route[] {
  if (hasRoutePrint(r) || !r.netRoutes.length) return r.ipv4Active;
  const rows = activeRows(r);
  const ifAddr = interfaceAddresses(rows, hostAddrs);
  const out: Ipv4Route[] = [];
  for (const x of rows) {
    const d = split(x);
    const netmask = d && d.bits >= 0 && d.bits <= 32 ? prefixToMask(d.bits) : null;
    if (!d || !isIpv4(d.destination) || !isIpv4(x.nextHop) || !netmask) continue;
    const metric = metricOf(x);
    const onLink = x.nextHop === '0.0.0.0';
    const iface = ifAddr.get(x.ifIndex);
    out.push({ destination: d.destination, netmask, prefixLength: d.bits, gateway: onLink ? 'On-link' : x.nextHop, onLink, ...(iface ? { interface: iface } : {}), ifIndex: x.ifIndex, ...(metric !== undefined ? { metric } : {}), metricText: metric === undefined ? '' : String(metric), src: x.src });
  }
  return out;
}

/** The IPv6 active routes: route print's, else (no route print in the file) Get-NetRoute's IPv6 rows. */
export function activeIpv6(r: RoutesResult): Ipv6Route[] {
  if (hasRoutePrint(r) || !r.netRoutes.length) return r.ipv6Active;
  const out: Ipv6Route[] = [];
  for (const x of activeRows(r)) {
    const d = split(x);
    if (!d || d.bits < 0 || d.bits > 128 || !isIpv6(d.destination) || !isIpv6(x.nextHop)) continue;
    const onLink = /^::$|^0*:0*:0*:0*:0*:0*:0*:0*$/.test(x.nextHop);
    out.push({ ifIndex: x.ifIndex, metric: metricOf(x) ?? Number.MAX_SAFE_INTEGER, destination: x.destinationPrefix, prefixLength: d.bits, gateway: onLink ? 'On-link' : x.nextHop, onLink, src: x.src });
  }
  return out;
}
