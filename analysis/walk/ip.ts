// IPv4 arithmetic the engine needs (addresses as uint32).
export function ipToInt(ip: string | undefined): number | undefined {
  if (!ip) return undefined;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip.trim());
  if (!m) return undefined;
  const p = m.slice(1).map(Number);
  if (p.some((x) => x > 255)) return undefined;
  return ((p[0] << 24) >>> 0) + (p[1] << 16) + (p[2] << 8) + p[3];
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export function parseCidr(c: string | undefined): { lo: number; hi: number; bits: number } | undefined {
  if (!c) return undefined;
  const [ip, bitsText] = c.trim().split('/');
  const base = ipToInt(ip);
  const bits = bitsText === undefined ? 32 : Number(bitsText);
  if (base === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) return undefined;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  const lo = (base & mask) >>> 0;
  return { lo, hi: (lo | (~mask >>> 0)) >>> 0, bits };
}

export function maskBits(mask: string | undefined): number | undefined {
  const n = ipToInt(mask);
  if (n === undefined) return undefined;
  let bits = 0;
  for (let i = 31; i >= 0 && (n >>> i) & 1; i--) bits++;
  return ((bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0) === n) ? bits : undefined;
}

/** Prefix length of an inclusive range when it is a CIDR block, else an estimate from its size. */
export function rangeBits(lo: number, hi: number): number {
  const size = hi - lo + 1;
  return 32 - Math.ceil(Math.log2(Math.max(1, size)));
}
