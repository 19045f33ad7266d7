// The node's active routes as the walk reads them. `route print` (collectlogs' routes.txt) is the host
// compartment's table; a routes.txt saved by hand may hold only `Get-NetRoute` (parsers/routes: the corpus
// has one from kubernetes-sigs/sig-windows-tools#215), and then its rows ARE the table — reading none would
// make every packet leaving the node "dropped: no route". Get-NetRoute's rows are used only when the file
// has no route print at all: collectlogs prints `Get-NetRoute -IncludeAllCompartments` beside route print,
// and those rows mix the pods' compartments into the host's (the default columns do not say which is which).
// Windows ranks routes by RouteMetric + InterfaceMetric (learn.microsoft.com, "An explanation of the
// Automatic Metric feature for IPv4 routes"; route print prints that sum), so the sum is the metric here.
import type { Ipv4Route, Ipv6Route, NetRoute, RoutesResult } from '../../parsers/routes/types.ts';
import { isIpv4, isIpv6, prefixToMask } from '../../parsers/net/ip.ts';

/** Whether routes.txt holds a `route print` (any section, any row): then it is the table, whole. */
const hasRoutePrint = (r: RoutesResult): boolean => r.interfaces.length + r.ipv4Active.length + r.ipv4Persistent.length + r.ipv6Active.length + r.ipv6Persistent.length > 0;

function split(x: NetRoute): { destination: string; bits: number } | undefined {
  const slash = x.destinationPrefix.lastIndexOf('/');
  if (slash < 0) return undefined;
  const bits = Number(x.destinationPrefix.slice(slash + 1));
  return Number.isInteger(bits) ? { destination: x.destinationPrefix.slice(0, slash), bits } : undefined;
}

const metricOf = (x: NetRoute): number | undefined => (x.routeMetric === undefined ? undefined : x.routeMetric + (x.ifMetric ?? 0));

/** The IPv4 active routes: route print's, else (no route print in the file) Get-NetRoute's IPv4 rows. */
export function activeIpv4(r: RoutesResult): Ipv4Route[] {
  if (hasRoutePrint(r) || !r.netRoutes.length) return r.ipv4Active;
  const out: Ipv4Route[] = [];
  for (const x of r.netRoutes) {
    const d = split(x);
    const netmask = d && d.bits >= 0 && d.bits <= 32 ? prefixToMask(d.bits) : null;
    if (!d || !isIpv4(d.destination) || !isIpv4(x.nextHop) || !netmask) continue;
    const metric = metricOf(x);
    const onLink = x.nextHop === '0.0.0.0';
    out.push({ destination: d.destination, netmask, prefixLength: d.bits, gateway: onLink ? 'On-link' : x.nextHop, onLink, ...(metric !== undefined ? { metric } : {}), metricText: metric === undefined ? '' : String(metric), src: x.src });
  }
  return out;
}

/** The IPv6 active routes: route print's, else (no route print in the file) Get-NetRoute's IPv6 rows. */
export function activeIpv6(r: RoutesResult): Ipv6Route[] {
  if (hasRoutePrint(r) || !r.netRoutes.length) return r.ipv6Active;
  const out: Ipv6Route[] = [];
  for (const x of r.netRoutes) {
    const d = split(x);
    if (!d || d.bits < 0 || d.bits > 128 || !isIpv6(d.destination) || !isIpv6(x.nextHop)) continue;
    const onLink = /^::$|^0*:0*:0*:0*:0*:0*:0*:0*$/.test(x.nextHop);
    out.push({ ifIndex: x.ifIndex, metric: metricOf(x) ?? Number.MAX_SAFE_INTEGER, destination: x.destinationPrefix, prefixLength: d.bits, gateway: onLink ? 'On-link' : x.nextHop, onLink, src: x.src });
  }
  return out;
}
