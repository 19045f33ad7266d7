// Small display helpers shared by the views.
export const PROTOCOLS: Record<number, string> = { 1: 'ICMP', 6: 'TCP', 17: 'UDP', 58: 'ICMPv6' };

export function protoName(p: number | undefined): string {
  if (p === undefined || Number.isNaN(p)) return '?';
  return PROTOCOLS[p] ?? String(p);
}

/** First 8 hex digits of a GUID, as Windows tools abbreviate them. */
export function shortGuid(g: string | undefined): string {
  if (!g) return '';
  return /^[0-9a-f]{8}-/i.test(g) ? g.slice(0, 8) : g;
}

export { plural } from '../../parsers/text/quantities.ts';
