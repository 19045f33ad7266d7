// Display helpers: what a Windows engineer reads on a node. Short forms always have their full value
// in the node's `guid` / `copy`, so nothing is lost by shortening.
const GUID = /^\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i;

export const isGuid = (s: string | undefined): boolean => !!s && GUID.test(s.trim());

/** `1c3ca999-32b7-…` → `1c3ca999`; other strings unchanged. */
export function shortGuid(s: string): string {
  const t = s.trim().replace(/^\{|\}$/g, '');
  return GUID.test(t) ? t.slice(0, 8) : t;
}

/**
 * Container endpoint and adapter names carry a 64-hex container ID (`b35bcbe0…_cbr0`,
 * `vEthernet (b35bcbe0…_cbr0)`); keep its first 12 characters, the way docker and crictl print it.
 */
export function shortName(s: string): string {
  return s.replace(/\b([0-9a-f]{12})[0-9a-f]{20,}/gi, '$1…').replace(/\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '$1…');
}

const PROTO: Record<number, string> = { 0: 'any', 1: 'ICMP', 6: 'TCP', 17: 'UDP', 58: 'ICMPv6' };

export const protoName = (p: number): string => PROTO[p] ?? String(p);

export { plural } from '../../parsers/text/quantities.ts';
