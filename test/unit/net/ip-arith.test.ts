// The address arithmetic of parsers/net/ against a BigInt reference: parse/print round trips for both
// families, IPv4-mapped IPv6 (RFC 4291 §2.5.5.2, printed per RFC 5952 §5), prefix ranges, containment and
// order. The reference below is written independently (bigint shifts), not from the module's code.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cidrContains, compareIp, firstHostOf, hexToIpv6, intToIpv4, ipv4ToUint, ipv6ToHex, isIpv6, mappedIpv4, parseCidr, prefixRange4, prefixRange6 } from '../../../parsers/net/ip.ts';
import { canonIp, cidrRange6, inCidr } from '../../../analysis/walk/ip.ts';

const ALL = (1n << 128n) - 1n;
const big6 = (hex: string) => BigInt(`0x${hex}`);
const hex6 = (n: bigint) => n.toString(16).padStart(32, '0');
const hostMask = (bits: number, width: number) => (1n << BigInt(width - bits)) - 1n;
/** Reference text: eight uncompressed groups. */
const full6 = (n: bigint) => Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');

const v6 = fc.bigInt({ min: 0n, max: ALL });
const v4 = fc.integer({ min: 0, max: 0xffffffff });

describe('IPv6 arithmetic', () => {
  it('parses the uncompressed text of any address to its value and prints it back to the same value', () => {
    fc.assert(
      fc.property(v6, (n) => {
        const h = ipv6ToHex(full6(n));
        expect(h).toBe(hex6(n));
        const printed = hexToIpv6(h!);
        expect(big6(ipv6ToHex(printed)!)).toBe(n);
        expect(isIpv6(printed)).toBe(true);
        // RFC 5952 §4.1/§4.3: no leading zeros, lower case.
        expect(printed).toBe(printed.toLowerCase());
      }),
    );
  });

  it('reads an IPv4-mapped address with a dotted tail and prints it so (RFC 5952 §5)', () => {
    fc.assert(
      fc.property(v4, (n) => {
        const text = `::ffff:${intToIpv4(n)}`;
        const h = ipv6ToHex(text)!;
        expect(big6(h)).toBe((0xffffn << 32n) | BigInt(n));
        expect(mappedIpv4(h)).toBe(n);
        expect(hexToIpv6(h)).toBe(text);
        expect(canonIp(`::FFFF:${intToIpv4(n)}`)).toBe(text);
      }),
    );
    expect(mappedIpv4(ipv6ToHex('::1')!)).toBeUndefined();
  });

  it('prefix ranges and containment agree with bigint masks', () => {
    fc.assert(
      fc.property(v6, v6, fc.integer({ min: 0, max: 128 }), (base, other, bits) => {
        const r = prefixRange6(`${full6(base)}/${bits}`)!;
        const lo = base & (ALL ^ hostMask(bits, 128));
        expect(r).toEqual({ lo: hex6(lo), hi: hex6(lo | hostMask(bits, 128)), bits });
        const inside = (other & (ALL ^ hostMask(bits, 128))) === lo;
        expect(cidrContains(`${hexToIpv6(hex6(base))}/${bits}`, hexToIpv6(hex6(other)))).toBe(inside);
      }),
    );
  });

  it('refuses prefix lengths the number rules refuse', () => {
    for (const bad of ['fd00::/', 'fd00::/129', 'fd00::/6.4e1', 'fd00::/0x40', 'fd00::/-0', 'fd00::/ 64', 'fd00::/64/1']) {
      expect(prefixRange6(bad), bad).toBeUndefined();
      expect(cidrRange6(bad), bad).toBeUndefined();
      expect(inCidr('fd00::1', bad), bad).toBe(false);
    }
    expect(parseCidr('fd00::/64')).toEqual({ family: 'ipv6', address: 'fd00::', prefixLength: 64 });
  });
});

describe('IPv4 arithmetic', () => {
  it('round-trips every uint32 and agrees with bigint masks on prefixes and containment', () => {
    fc.assert(
      fc.property(v4, v4, fc.integer({ min: 0, max: 32 }), (base, other, bits) => {
        const text = intToIpv4(base)!;
        expect(ipv4ToUint(text)).toBe(base);
        const m = 0xffffffffn ^ hostMask(bits, 32);
        const lo = Number(BigInt(base) & m);
        expect(prefixRange4(`${text}/${bits}`)).toEqual({ lo, hi: Number(BigInt(lo) | hostMask(bits, 32)), bits });
        expect(parseCidr(`${text}/${bits}`)?.network).toBe(lo);
        expect(cidrContains(`${text}/${bits}`, intToIpv4(other)!)).toBe((BigInt(other) & m) === BigInt(lo));
      }),
    );
  });

  it('the first host of a prefix written with host bits lies inside it: network + 1, or the network for /31 and /32', () => {
    fc.assert(
      fc.property(v4, fc.integer({ min: 0, max: 32 }), (n, bits) => {
        const net = BigInt(n) & ~hostMask(bits, 32) & 0xffffffffn;
        const want = bits >= 31 ? net : net + 1n;
        expect(firstHostOf(`${intToIpv4(n)}/${bits}`)).toBe(intToIpv4(Number(want)));
        expect(cidrContains(`${intToIpv4(n)}/${bits}`, firstHostOf(`${intToIpv4(n)}/${bits}`)!)).toBe(true);
      }),
    );
    for (const bad of ['10.0.0.0/33', '10.0.0/24', 'fd00::/64', '', '10.0.0.0/8.0']) expect(firstHostOf(bad), bad).toBeUndefined();
  });

  it('refuses octets and prefix lengths the number rules refuse', () => {
    for (const bad of ['256.0.0.1', '1.2.3', '1.2.3.4.5', '+1.2.3.4', '1.2.3.4 /8', '1.2.3.4/33', '1.2.3.4/8.0', '1.2.3.4/']) {
      expect(prefixRange4(bad), bad).toBeUndefined();
    }
  });
});

describe('order and families', () => {
  it('compareIp is numeric within a family and puts IPv4 first', () => {
    fc.assert(
      fc.property(fc.oneof(v4.map((n) => [4, BigInt(n)] as const), v6.map((n) => [6, n] as const)), fc.oneof(v4.map((n) => [4, BigInt(n)] as const), v6.map((n) => [6, n] as const)), (a, b) => {
        const text = ([f, n]: readonly [number, bigint]) => (f === 4 ? intToIpv4(Number(n))! : hexToIpv6(hex6(n)));
        const want = a[0] !== b[0] ? Math.sign(a[0] - b[0]) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
        expect(Math.sign(compareIp(text(a), text(b))!)).toBe(want);
      }),
    );
    expect(compareIp('10.0.0.1', 'x')).toBeUndefined();
  });

  it('an address never lies in a prefix of the other family', () => {
    expect(cidrContains('0.0.0.0/0', '::ffff:10.0.0.1')).toBe(false);
    expect(cidrContains('::/0', '10.0.0.1')).toBe(false);
    expect(cidrContains('::/0', '::ffff:10.0.0.1')).toBe(true);
  });

  it('isIpv6 takes exactly an address (zone a word, no brackets or blanks, no stray colon)', () => {
    for (const bad of [':1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:', '1.2.3.4::', '[fd00::1]', ' fd00::1', 'fe80::1%']) expect(isIpv6(bad), bad).toBe(false);
    for (const ok of ['fe80::1%12', 'fe80::1%eth0.1', '::', '::1', '::ffff:10.0.0.1', '1:2:3:4:5:6:7::']) expect(isIpv6(ok), ok).toBe(true);
  });
});
