// Condition value decoding.
import { describe, expect, it } from 'vitest';
import { conditionKind, makeCondition, parseIpv4Ranges, parsePortRanges, parseProtocols } from '../../../parsers/vfp/conditions.ts';
import { ipv4ToUint, uintToIpv4 } from '../../../parsers/net/ip.ts';
import { parseDipRange, parseEncapDestinations, parseFlags } from '../../../parsers/vfp/rule-values.ts';
import { OBJECT_MEMBER_NAMES } from '../../helpers/object-member-names.ts';

const ip = (s: string): number => ipv4ToUint(s)!;

describe('IPv4 ranges', () => {
  it('single, range, prefix, list, underscores', () => {
    expect(parseIpv4Ranges('10.0.0.1')).toEqual([{ lo: ip('10.0.0.1'), hi: ip('10.0.0.1') }]);
    expect(parseIpv4Ranges('10.0.0.0 - 10.0.0.255')).toEqual([{ lo: ip('10.0.0.0'), hi: ip('10.0.0.255') }]);
    expect(parseIpv4Ranges('10.244.0.0/16, 192.168.1.7')).toEqual([
      { lo: ip('10.244.0.0'), hi: ip('10.244.255.255') },
      { lo: ip('192.168.1.7'), hi: ip('192.168.1.7') },
    ]);
    expect(parseIpv4Ranges('10_244_3_0-10_244_3_255')).toEqual([{ lo: ip('10.244.3.0'), hi: ip('10.244.3.255') }]);
    expect(parseIpv4Ranges('0.0.0.0/0')).toEqual([{ lo: 0, hi: 0xffffffff }]);
    expect(parseIpv4Ranges('fe80::1, 300.1.1.1, x')).toEqual([]);
    expect(uintToIpv4(ip('255.1.2.3'))).toBe('255.1.2.3');
  });
  it('ports, protocols, kinds', () => {
    expect(parsePortRanges('80-90, 443 ,99999')).toEqual([{ lo: 80, hi: 90 }, { lo: 443, hi: 443 }]);
    expect(parseProtocols('6, 17, TCP, icmp')).toEqual([6, 17, 6, 1]);
  });
  it('a word that names a property of every object is no protocol name', () => {
    // The names table is a plain object: only its own keys are protocols, not `constructor` or `__proto__`.
    for (const word of [...OBJECT_MEMBER_NAMES, 'Constructor'])
      expect(parseProtocols(`${word}, tcp`), word).toEqual([6]);
    expect(makeCondition('Protocols', 'constructor').protocols ?? []).toEqual([]);
    expect(['Source IP', 'Destination IP', 'Source ports', 'Destination ports', 'Protocols', 'Source MAC', 'Destination MAC', 'VLAN', 'Foo'].map(conditionKind)).toEqual([
      'srcIp', 'dstIp', 'srcPort', 'dstPort', 'protocols', 'srcMac', 'dstMac', 'vlan', 'other',
    ]);
    expect(makeCondition('Destination MAC', '0015.5dAA.87B8').macs).toBeUndefined();
    expect(makeCondition('Destination MAC', '00155daa87b8')).toMatchObject({ macs: ['00-15-5D-AA-87-B8'] });
  });
});

describe('rule values', () => {
  it('flags', () => {
    expect(parseFlags('8195 terminating stateful')).toEqual({ flags: 8195, text: 'terminating stateful', names: ['terminating', 'stateful'] });
    expect(parseFlags('0x9, Default Allow , Update flows on address change', true)).toEqual({
      flags: 9,
      text: 'Default Allow , Update flows on address change',
      names: ['Default Allow', 'Update flows on address change'],
    });
    expect(parseFlags('none')).toBeUndefined();
  });
  it('encap destinations and DIPs', () => {
    expect(parseEncapDestinations('{ IP address=1.2.3.4, MAC address=00-15-5D-F9-D2-63, GRE key=4096, Foo=bar } { IP address=5.6.7.8 }')).toEqual({
      dests: [
        { ip: '1.2.3.4', mac: '00-15-5D-F9-D2-63', greKey: 4096, extra: { Foo: 'bar' } },
        { ip: '5.6.7.8', extra: {} },
      ],
      complete: true,
    });
    expect(parseEncapDestinations('{ IP address=1.2.3.4, MAC addr').complete).toBe(false);
    expect(parseDipRange('{ 10.244.0.25 : 53 }')).toEqual({ ip: '10.244.0.25', port: 53 });
    expect(parseDipRange('{ fdf5:5d67:b9ce:b28f::13f : 4445 }')).toEqual({ ip: 'fdf5:5d67:b9ce:b28f::13f', port: 4445 });
    expect(parseDipRange('{ 10.0.0.1 }')).toEqual({ ip: '10.0.0.1' });
    expect(parseDipRange('{ }')).toBeUndefined();
  });
});
