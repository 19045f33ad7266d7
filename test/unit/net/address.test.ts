// The one parser of `IP[:PORT][/PROTO]` and `SRC-DST[:PORT][/PROTO]` texts.
import { describe, expect, it } from 'vitest';
import { addressProblem, parseAddress, parseFlowSpec } from '../../../parsers/net/address.ts';

describe('parseAddress', () => {
  it.each([
    ['10.96.0.10', { ip: '10.96.0.10' }],
    [' 10.96.0.10:53 ', { ip: '10.96.0.10', port: 53 }],
    ['10.96.0.10:53/UDP', { ip: '10.96.0.10', port: 53, proto: 'udp' }],
    ['10.96.0.10 / tcp', { ip: '10.96.0.10', proto: 'tcp' }],
  ])('reads %s', (text, want) => expect(parseAddress(text)).toEqual(want));

  it.each(['10.96.0.256', '10.96.0', '10.96.0.10:0', '10.96.0.10:65536', '10.96.0.10:53/sctp', 'kube-dns', ''])('refuses %s', (text) => {
    expect(parseAddress(text)).toBeUndefined();
  });

  it('says why', () => {
    expect(addressProblem('10.1.1.1:70000')).toBe('port 70000 is out of range');
    expect(addressProblem('10.1.1.999')).toBe('10.1.1.999 is not an IPv4 address');
    expect(addressProblem('pod-a')).toBe('not an IP address');
    expect(parseAddress('[fd00::a]:80/tcp')).toEqual({ ip: 'fd00::a', port: 80, proto: 'tcp' });
    expect(parseAddress('fd00::5')).toEqual({ ip: 'fd00::5' });
    expect(addressProblem('[fd00::a]:99999')).toBe('port 99999 is out of range');
    expect(addressProblem('10.1.1.1:80')).toBeUndefined();
  });
});

describe('parseFlowSpec', () => {
  it('reads a flow with and without port and protocol', () => {
    expect(parseFlowSpec('10.244.1.5-10.96.0.10:53/udp')).toEqual({ srcIp: '10.244.1.5', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' });
    expect(parseFlowSpec('10.244.1.5-8.8.8.8')).toEqual({ srcIp: '10.244.1.5', dstIp: '8.8.8.8' });
    expect(parseFlowSpec('10.244.1.5-10.96.0.10/ICMP')).toEqual({ srcIp: '10.244.1.5', dstIp: '10.96.0.10', proto: 'icmp' });
  });
  it.each(['10.244.1.5', '10.244.1.5-10.96.0.300', '10.244.1.5-10.96.0.10:99999', 'a-b'])('refuses %s', (t) => expect(parseFlowSpec(t)).toBeUndefined());
});
