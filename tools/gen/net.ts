// Small IPv4 helpers for the generator (its own input is trusted, so these do not validate; the
// product parses addresses with parsers/net/ip.ts).

export function ipToInt(ip: string): number {
  const p = ip.split('.').map(Number);
  return ((p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3]) >>> 0;
}

export function intToIp(n: number): string {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export function maskOf(prefixLen: number): string {
  return intToIp(prefixLen === 0 ? 0 : (0xffffffff << (32 - prefixLen)) >>> 0);
}

export function cidrBlock(cidr: string): { network: string; prefixLen: number; first: string; last: string } {
  const [ip, len] = cidr.split('/');
  const prefixLen = Number(len);
  const mask = prefixLen === 0 ? 0 : (0xffffffff << (32 - prefixLen)) >>> 0;
  const net = (ipToInt(ip) & mask) >>> 0;
  const last = (net | (~mask >>> 0)) >>> 0;
  return { network: intToIp(net), prefixLen, first: intToIp(net), last: intToIp(last) };
}

/** The Nth address of a subnet, e.g. hostAt('10.244.1.0/24', 2) = 10.244.1.2. */
export function hostAt(cidr: string, n: number): string {
  return intToIp((ipToInt(cidrBlock(cidr).network) + n) >>> 0);
}

/** kube-proxy's conjured MAC for remote endpoints: prefix + the IPv4 bytes in hex. */
export function conjureMac(prefix: string, ip: string): string {
  const b = ip.split('.').map((x) => Number(x).toString(16).padStart(2, '0'));
  return `${prefix}-${b.join('-')}`.toUpperCase();
}

export function macColons(mac: string): string {
  return mac.toLowerCase().replace(/-/g, ' ');
}
