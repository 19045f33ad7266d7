import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { intToIpv4, ipv4ToInt, isApipa, isIpv6, maskToPrefix, normalizeMac, parseCidr, prefixToMask } from '../../../parsers/net/ip.ts';

describe('net/ip helpers', () => {
  it('ipv4ToInt / intToIpv4', () => {
    expect(ipv4ToInt('10.244.19.2')).toBe(0x0af41302);
    expect(ipv4ToInt('255.255.255.255')).toBe(0xffffffff);
    expect(ipv4ToInt('256.1.1.1')).toBeNull();
    expect(ipv4ToInt('10.1.1')).toBeNull();
    expect(intToIpv4(0x0af41302)).toBe('10.244.19.2');
    expect(intToIpv4(-1)).toBeNull();
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xffffffff }), (n) => ipv4ToInt(intToIpv4(n) as string) === n));
  });

  it('maskToPrefix / prefixToMask', () => {
    expect(maskToPrefix('255.255.255.0')).toBe(24);
    expect(maskToPrefix('255.255.240.0')).toBe(20);
    expect(maskToPrefix('0.0.0.0')).toBe(0);
    expect(maskToPrefix('255.255.255.255')).toBe(32);
    expect(maskToPrefix('255.0.255.0')).toBeNull();
    expect(maskToPrefix('junk')).toBeNull();
    for (let p = 0; p <= 32; p++) expect(maskToPrefix(prefixToMask(p) as string)).toBe(p);
  });

  it('parseCidr', () => {
    expect(parseCidr('10.244.19.0/24')).toEqual({ family: 'ipv4', address: '10.244.19.0', prefixLength: 24, network: 0x0af41300, first: '10.244.19.0', last: '10.244.19.255' });
    expect(parseCidr('10.244.19.7/24')?.first).toBe('10.244.19.0');
    expect(parseCidr('0.0.0.0/0')).toMatchObject({ prefixLength: 0, first: '0.0.0.0', last: '255.255.255.255' });
    expect(parseCidr('10.0.0.1')).toMatchObject({ prefixLength: 32 });
    expect(parseCidr('fe80::/64')).toEqual({ family: 'ipv6', address: 'fe80::', prefixLength: 64 });
    expect(parseCidr('::/0')).toMatchObject({ family: 'ipv6', prefixLength: 0 });
    expect(parseCidr('10.0.0.0/33')).toBeNull();
    expect(parseCidr('10.0.0.0/x')).toBeNull();
    expect(parseCidr('nonsense')).toBeNull();
  });

  it('isIpv6, isApipa, normalizeMac', () => {
    expect(isIpv6('fe80::1%12')).toBe(true);
    expect(isIpv6('::ffff:10.0.0.1')).toBe(true);
    expect(isIpv6('1:2:3:4:5:6:7:8')).toBe(true);
    expect(isIpv6('1::2::3')).toBe(false);
    expect(isIpv6('10.0.0.1')).toBe(false);
    expect(isApipa('169.254.3.4')).toBe(true);
    expect(isApipa('10.0.0.1')).toBe(false);
    expect(normalizeMac('00 15 5d e1 56 f4')).toBe('00-15-5D-E1-56-F4');
    expect(normalizeMac('00:15:5d:e1:56:f4')).toBe('00-15-5D-E1-56-F4');
    expect(normalizeMac('00155de156f4')).toBe('00-15-5D-E1-56-F4');
    expect(normalizeMac('00-00-00-00-00-00-00-e0', { long: true })).toBe('00-00-00-00-00-00-00-E0');
    expect(normalizeMac('zz-zz')).toBeUndefined();
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(fc.property(fc.string(), (s) => { ipv4ToInt(s); maskToPrefix(s); parseCidr(s); isIpv6(s); normalizeMac(s); }));
  });
});
