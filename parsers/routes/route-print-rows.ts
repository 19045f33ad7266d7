// How many rows of `route print` a routes.txt held, in any section. Zero means the file holds no route
// print at all (only Get-NetRoute, or nothing): the walk then routes by Get-NetRoute's rows, inspect
// counts those, and the parser warns when there are none of either.
import type { RoutePrintResult } from './types.ts';

export const routePrintRows = (v: RoutePrintResult): number => v.interfaces.length + v.ipv4Active.length + v.ipv4Persistent.length + v.ipv6Active.length + v.ipv6Persistent.length;
