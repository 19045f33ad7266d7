// The generator's IPv4 shorthands over the product's one address module (parsers/net): the generator's
// own input is trusted, so an address that is not one is a bug in the generator and throws, where the
// product's readers return undefined.
import { parseCidr, prefixMaskUint, prefixRange4, uintToIpv4, ipv4ToUint } from '../../parsers/net/ip.ts';

export function ipToInt(ip: string | undefined): number {
  const n = ipv4ToUint(ip ?? '');
  if (n === undefined) throw new Error(`generator: "${ip}" is not an IPv4 address`);
  return n;
}

/** Dotted text of an integer taken modulo 2^32 (the generator adds offsets to addresses and wraps). */
export function intToIp(n: number): string {
  return uintToIpv4(n >>> 0);
}

export function maskOf(prefixLen: number): string {
  return intToIp(prefixMaskUint(prefixLen));
}

export function cidrBlock(cidr: string): { network: string; prefixLen: number; first: string; last: string } {
  const c = parseCidr(cidr);
  if (c?.family !== 'ipv4' || c.first === undefined || c.last === undefined) throw new Error(`generator: "${cidr}" is not an IPv4 prefix`);
  return { network: c.first, prefixLen: c.prefixLength, first: c.first, last: c.last };
}

/** The Nth address of a subnet, e.g. hostAt('10.244.1.0/24', 2) = 10.244.1.2. */
export function hostAt(cidr: string, n: number): string {
  const r = prefixRange4(cidr);
  if (!r) throw new Error(`generator: "${cidr}" is not an IPv4 prefix`);
  return intToIp(r.lo + n);
}

/** kube-proxy's conjured MAC for remote endpoints: prefix + the IPv4 bytes in hex. */
export function conjureMac(prefix: string, ip: string): string {
  const b = ip.split('.').map((x) => Number(x).toString(16).padStart(2, '0'));
  return `${prefix}-${b.join('-')}`.toUpperCase();
}

export function macColons(mac: string): string {
  return mac.toLowerCase().replace(/-/g, ' ');
}
