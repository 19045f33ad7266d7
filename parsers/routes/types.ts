import type { SourceRef } from '../types.ts';

export interface RouteInterface {
  index: number;
  /** Upper-case with dashes; absent for the loopback and other interfaces printed without one. */
  mac?: string;
  description: string;
  src: SourceRef;
}

export interface Ipv4Route {
  destination: string;
  netmask: string;
  /** Absent when the netmask is not contiguous. */
  prefixLength?: number;
  /** As printed: an address, or `On-link` (localized: `Auf Verbindung`, …). */
  gateway: string;
  onLink: boolean;
  /** Interface address (IPv4 active routes only). */
  interface?: string;
  /** Interface index, where the row names one (Get-NetRoute; route print's IPv4 rows name the address). */
  ifIndex?: number;
  /** Number; absent for persistent routes printed with `Default`. */
  metric?: number;
  metricText: string;
  src: SourceRef;
}

export interface Ipv6Route {
  ifIndex: number;
  metric: number;
  destination: string;
  prefixLength?: number;
  gateway: string;
  onLink: boolean;
  src: SourceRef;
}

export interface RoutePrintResult {
  interfaces: RouteInterface[];
  ipv4Active: Ipv4Route[];
  ipv4Persistent: Ipv4Route[];
  ipv6Active: Ipv6Route[];
  ipv6Persistent: Ipv6Route[];
}

export interface NetRoute {
  ifIndex: number;
  destinationPrefix: string;
  nextHop: string;
  routeMetric?: number;
  /** Blank in the table when the interface has no metric in that store. */
  ifMetric?: number;
  /** May be cut to `Persiste...` by the column width. */
  policyStore?: string;
  truncated: boolean;
  extra: Record<string, string>;
  src: SourceRef;
}

export interface RoutesResult extends RoutePrintResult {
  netRoutes: NetRoute[];
}
