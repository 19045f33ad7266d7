export { parseRoutePrint, parseRoutePrintLines } from './route-print.ts';
export { parseRoutesTxt, findNetRouteStart } from './routes-txt.ts';
export { netRoutesFromTable } from './net-route.ts';
export { routePrintRows } from './route-print-rows.ts';
export type { Ipv4Route, Ipv6Route, NetRoute, RouteInterface, RoutePrintResult, RoutesResult } from './types.ts';
