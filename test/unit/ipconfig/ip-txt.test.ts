import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseIpTxt } from '../../../parsers/ipconfig/ip-txt.ts';
import { expectWellFormedIssues, mutate, mutationArb } from '../ps/mutations.ts';
import { OBJECT_MEMBER_NAMES } from '../../helpers/object-member-names.ts';

const fx = (name: string) => readFileSync(new URL(`../../fixtures/ipconfig/${name}`, import.meta.url), 'utf8');
const POD1 = '586dc7f4402fa8edbad341f638e51f38620ef195173b268961deaa9176f1803d';
const POD2 = '745ad2248ed418f3ce014f92715b0cd67728a677aa1bb44a71f4906266966c0a';

describe('parseIpTxt — k8s node (ipconfig /allcompartments /all + Get-NetIPAddress + Get-NetIPInterface)', () => {
  const r = parseIpTxt(fx('k8s-node-ip.txt'), 'ip.txt');
  const v = r.value;

  it('reads without issues', () => {
    expect(r.issues).toEqual([]);
    expect(v.language).toBe('en');
  });

  it('host compartment 1 (ACTIVE) with its adapters, pod compartments 2 and 3', () => {
    expect(v.compartments.map((c) => [c.id, c.active, c.src.line, c.adapters.map((a) => a.name)])).toEqual([
      [1, true, 5, ['Ethernet 2', 'vEthernet (Ethernet)', 'vEthernet (nat)', 'vEthernet (cbr0_ep)']],
      [2, undefined, 80, [`vEthernet (${POD1}_cbr0)`]],
      [3, undefined, 110, [`vEthernet (${POD2}_cbr0)`]],
    ]);
    expect(v.compartments[0]).toMatchObject({ hostName: 'akswin000001', primaryDnsSuffix: '', nodeType: 'Hybrid', ipRoutingEnabled: false, winsProxyEnabled: false, dnsSuffixSearchList: ['cluster.internal', 'corp.example.com'] });
  });

  it('host vNIC: two IPv4 addresses with their masks, IPv6 + IPv4 gateways on two lines, two DNS servers, DHCP extras', () => {
    const eth = v.compartments[0].adapters[1];
    expect(eth).toMatchObject({
      kind: 'Ethernet', dnsSuffix: 'cluster.internal', description: 'Hyper-V Virtual Ethernet Adapter', mac: '00-15-5D-8A-3B-01',
      dhcpEnabled: true, autoconfig: true, gateways: ['fe80::1%24', '10.127.130.1'], dnsServers: ['10.127.130.10', '10.127.130.11'],
      netbios: 'Enabled', dnsSuffixSearchList: [], src: { file: 'ip.txt', line: 24 },
    });
    expect(eth.ipv4).toEqual([
      { address: '10.127.130.36', mask: '255.255.255.0', prefixLength: 24, preferred: true, status: 'Preferred', autoconfigured: false, apipa: false, src: { file: 'ip.txt', line: 32 } },
      { address: '10.127.130.40', mask: '255.255.255.255', prefixLength: 32, preferred: true, status: 'Preferred', autoconfigured: false, apipa: false, src: { file: 'ip.txt', line: 34 } },
    ]);
    expect(eth.ipv6).toEqual([{ address: 'fe80::4d2c:1b0e:9a77:52a1', zone: '24', preferred: true, status: 'Preferred', linkLocal: true, temporary: false, src: { file: 'ip.txt', line: 31 } }]);
    expect(eth.extra).toEqual({
      'Lease Obtained': 'Tuesday, April 30, 2024 9:02:11 AM', 'Lease Expires': 'Wednesday, May 8, 2024 9:02:11 AM',
      'DHCP Server': '10.127.130.1', 'DHCPv6 IAID': '402658653', 'DHCPv6 Client DUID': '00-01-00-01-2D-C3-51-0A-00-15-5D-8A-3B-01',
    });
  });

  it('disconnected NIC, nat vNIC with an empty gateway and three DNS continuation lines', () => {
    const [e2, , nat, ep] = v.compartments[0].adapters;
    expect(e2).toMatchObject({ mediaState: 'Media disconnected', mediaDisconnected: true, dnsSuffix: '', ipv4: [], ipv6: [] });
    expect(nat.gateways).toEqual([]);
    expect(nat.dnsServers).toEqual(['fec0:0:0:ffff::1%1', 'fec0:0:0:ffff::2%1', 'fec0:0:0:ffff::3%1']);
    expect(nat.ipv4.map((x) => [x.address, x.prefixLength])).toEqual([['172.17.48.1', 20]]);
    expect(ep.ipv4.map((x) => [x.address, x.prefixLength])).toEqual([['10.244.19.2', 24]]);
    expect(ep.gateways).toEqual(['10.244.19.1']);
  });

  it('pod adapters: gateway .2, DNS VIP, search lists from continuation lines', () => {
    const pod = v.compartments[1].adapters[0];
    expect(pod).toMatchObject({
      mac: '00-15-5D-E1-56-F4', dhcpEnabled: false, gateways: ['10.244.19.2'], dnsServers: ['10.96.0.10'],
      dnsSuffix: 'default.svc.cluster.local', dnsSuffixSearchList: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'],
    });
    expect(pod.ipv4.map((x) => [x.address, x.prefixLength])).toEqual([['10.244.19.7', 24]]);
    expect(v.compartments[1].dnsSuffixSearchList).toEqual(['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local']);
    expect(v.compartments[2].adapters[0].ipv6[0]).toMatchObject({ address: 'fe80::8493:b5bd:ede6:d73e', zone: '58' });
  });

  it('Get-NetIPAddress list records', () => {
    expect(v.netIpAddresses.map((a) => [a.ipAddress, a.zone, a.interfaceIndex, a.prefixLength, a.addressFamily, a.src.line])).toEqual([
      ['fe80::89a0:e44:fb0:8a41', '46', 46, 64, 'IPv6', 140],
      ['fe80::6c8e:2a41:9f3b:1d20', '45', 45, 64, 'IPv6', 154],
      ['10.244.19.7', undefined, 46, 24, 'IPv4', 168],
      ['10.244.19.2', undefined, 45, 24, 'IPv4', 182],
      ['172.17.48.1', undefined, 41, 20, 'IPv4', 196],
      ['10.127.130.36', undefined, 24, 24, 'IPv4', 210],
      ['127.0.0.1', undefined, 1, 8, 'IPv4', 224],
    ]);
    expect(v.netIpAddresses[5]).toEqual({
      ipAddress: '10.127.130.36', interfaceIndex: 24, interfaceAlias: 'vEthernet (Ethernet)', addressFamily: 'IPv4', type: 'Unicast',
      prefixLength: 24, prefixOrigin: 'Dhcp', suffixOrigin: 'Dhcp', addressState: 'Preferred', validLifetime: '7.23:59:51',
      preferredLifetime: '7.23:59:51', skipAsSource: false, policyStore: 'ActiveStore', extra: {}, src: { file: 'ip.txt', line: 210 },
    });
    expect(v.netIpAddresses[2].interfaceAlias).toBe(`vEthernet (${POD1}_cbr0)`);
  });

  it('Get-NetIPInterface table rows, truncated alias flagged', () => {
    expect(v.netIpInterfaces).toHaveLength(11);
    expect(v.netIpInterfaces[0]).toEqual({
      ifIndex: 46, interfaceAlias: 'vEthernet (586dc7f4402fa8edb...', addressFamily: 'IPv6', nlMtu: 1500, interfaceMetric: 15,
      dhcp: 'Disabled', connectionState: 'Connected', policyStore: 'ActiveStore', truncated: true, extra: {}, src: { file: 'ip.txt', line: 241 },
    });
    expect(v.netIpInterfaces[9]).toMatchObject({ ifIndex: 6, interfaceAlias: 'Ethernet 2', interfaceMetric: 5, connectionState: 'Disconnected', truncated: false });
    expect(v.netIpInterfaces[4]).toMatchObject({ ifIndex: 1, nlMtu: 4294967295, interfaceMetric: 75 });
  });

  it('LF input gives the same result', () => {
    expect(parseIpTxt(fx('k8s-node-ip.txt').replace(/\r\n/g, '\n'), 'ip.txt').value).toEqual(v);
  });
});

describe('parseIpTxt — variants and bad input', () => {
  it('an old bundle with only ipconfig output', () => {
    const r = parseIpTxt(fx('seed-compartment2.txt'), 'ip.txt');
    expect(r.value.compartments).toHaveLength(1);
    expect(r.value.netIpAddresses).toEqual([]);
    expect(r.value.netIpInterfaces).toEqual([]);
  });

  it('a file truncated inside the Get-NetIPAddress list', () => {
    const full = fx('k8s-node-ip.txt');
    const at = full.indexOf('172.17.48.1\r\nInterfaceIndex');
    const r = parseIpTxt(full.slice(0, at + '172.17.48.1\r\nInterfaceInd'.length), 'ip.txt');
    expect(r.value.compartments).toHaveLength(3);
    expect(r.value.netIpAddresses.map((a) => a.ipAddress)).toEqual(['fe80::89a0:e44:fb0:8a41', 'fe80::6c8e:2a41:9f3b:1d20', '10.244.19.7', '10.244.19.2', '172.17.48.1']);
    expect(r.value.netIpAddresses[4].interfaceIndex).toBeUndefined();
    expect(r.value.netIpInterfaces).toEqual([]);
    // Cut right after the key: the record has no address and is dropped with a warning.
    const r2 = parseIpTxt(full.slice(0, at), 'ip.txt');
    expect(r2.value.netIpAddresses).toHaveLength(4);
    expect(r2.issues).toEqual([{ file: 'ip.txt', line: 196, severity: 'warning', message: expect.stringContaining('without IPAddress') }]);
  });

  it('empty and junk input: a warning, no throw', () => {
    for (const t of ['', '\u0000\u0000', 'hello world']) {
      const r = parseIpTxt(t, 'ip.txt');
      expect(r.value.compartments).toEqual([]);
      expect(r.issues.some((i) => i.severity === 'warning' && i.line === 0)).toBe(true);
    }
  });

  it('never throws or hangs on mutated input', () => {
    const text = fx('k8s-node-ip.txt');
    fc.assert(fc.property(mutationArb, (ms) => {
      const r = parseIpTxt(mutate(text, ms), 'ip.txt');
      expectWellFormedIssues(r.issues, 'ip.txt');
    }), { numRuns: 200 });
  });
});

describe('parseIpTxt — Get-NetIPAddress keys named like Object members', () => {
  // A record's `constructor`, `toString` or `__proto__` key is a field like any other: kept among
  // the extras with its value, never looked up as a name Object inherits (which lost the value), and
  // `__proto__` never taken as the prototype (parsers/ps/list.ts and the extras have none).
  const names = OBJECT_MEMBER_NAMES;
  it('keeps them in extra with their values', () => {
    const text = ['IPAddress         : 10.0.0.5', 'InterfaceAlias    : Ethernet', ...names.map((n, i) => `${n.padEnd(18)}: value-${i}`), ''].join('\n');
    const a = parseIpTxt(text, 'ip.txt').value.netIpAddresses;
    expect(a).toHaveLength(1);
    expect(a[0]).toMatchObject({ ipAddress: '10.0.0.5', interfaceAlias: 'Ethernet' });
    expect(Object.entries(a[0]!.extra)).toEqual(names.map((n, i) => [n, `value-${i}`]));
    expect(Object.keys(a[0]!).filter((k) => !['ipAddress', 'interfaceAlias', 'extra', 'src'].includes(k))).toEqual([]);
  });
});
