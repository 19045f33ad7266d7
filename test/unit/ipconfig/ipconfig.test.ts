import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseIpconfig } from '../../../parsers/ipconfig/ipconfig.ts';
import { expectWellFormedIssues, mutate, mutationArb } from '../ps/mutations.ts';

const fx = (name: string) => readFileSync(new URL(`../../fixtures/ipconfig/${name}`, import.meta.url), 'utf8');
const json = (name: string) => JSON.parse(fx(name));

describe('parseIpconfig — seed excerpts (flattened layout, verbatim)', () => {
  it('compartment 2: `=====` banners, brace adapter name, %zone, indented search-list continuation', () => {
    const r = parseIpconfig(fx('seed-compartment2.txt'), 'ip.txt');
    expect(r.issues).toEqual([]);
    const exp = json('seed-compartment2.expected.json');
    expect(r.value.language).toBe(exp.language);
    expect(r.value.compartments).toEqual(exp.compartments);
  });

  it('compartment 3: `-----` banners, column-0 continuation, damaged IPv6 kept in extra with a warning', () => {
    const r = parseIpconfig(fx('seed-compartment3.txt'), 'ip.txt');
    const exp = json('seed-compartment3.expected.json');
    expect(r.value.compartments).toEqual(exp.compartments);
    expect(r.issues).toEqual([
      { file: 'ip.txt', line: 17, severity: 'warning', message: expect.stringContaining('not an IP address') },
    ]);
  });
});

describe('parseIpconfig — plain ipconfig /all', () => {
  const r = parseIpconfig(fx('ipconfig-plain.txt'), 'ipconfig.txt');
  const [c] = r.value.compartments;

  it('yields one implicit compartment 1', () => {
    expect(r.issues).toEqual([]);
    expect(r.value.compartments).toHaveLength(1);
    expect(c).toMatchObject({ id: 1, implicit: true, hostName: 'WS2019-LAB', primaryDnsSuffix: 'lab.example.com', nodeType: 'Hybrid', ipRoutingEnabled: false, winsProxyEnabled: false, dnsSuffixSearchList: ['lab.example.com'] });
    expect(c.active).toBeUndefined();
    expect(c.adapters.map((a) => [a.kind, a.name])).toEqual([
      ['Ethernet', 'Ethernet'], ['Ethernet', 'Ethernet 3'], ['Tunnel', 'isatap.{6D1A2B3C-4D5E-6F70-8192-A3B4C5D6E7F8}'], ['Unknown', 'Local Area Connection'],
    ]);
  });

  it('keeps an APIPA autoconfiguration address, flagged, with its mask', () => {
    const a = c.adapters[0];
    expect(a.ipv4).toEqual([{ address: '169.254.12.34', mask: '255.255.0.0', prefixLength: 16, preferred: true, status: 'Preferred', autoconfigured: true, apipa: true, src: { file: 'ipconfig.txt', line: 19 } }]);
    expect(a.gateways).toEqual([]);
    expect(a.dnsServers).toEqual(['fec0:0:0:ffff::1%1', 'fec0:0:0:ffff::2%1']);
    expect(a.mac).toBe('00-0C-29-AB-CD-EF');
    expect(a.extra).toEqual({ 'DHCPv6 IAID': '100666409' });
  });

  it('attaches each subnet mask to the IPv4 address before it; IPv6 global, temporary and link-local', () => {
    const a = c.adapters[1];
    expect(a.ipv4.map((x) => [x.address, x.mask, x.prefixLength, x.status, x.preferred])).toEqual([
      ['10.1.0.25', '255.255.255.0', 24, 'Preferred', true],
      ['10.1.0.26', '255.255.255.0', 24, 'Duplicate', false],
    ]);
    expect(a.ipv6.map((x) => [x.address, x.zone, x.linkLocal, x.temporary, x.status])).toEqual([
      ['2001:db8:10::25', undefined, false, false, 'Preferred'],
      ['2001:db8:10::9c1e', undefined, false, true, 'Deprecated'],
      ['fe80::215:5dff:fe00:1122', '9', true, false, 'Preferred'],
    ]);
    expect(a.gateways).toEqual(['2001:db8:10::1', '10.1.0.1']);
    expect(a.extra).toEqual({ 'Primary WINS Server': '10.1.0.4' });
  });

  it('reads media state and 8-byte tunnel addresses', () => {
    const t = c.adapters[2];
    expect(t).toMatchObject({ mediaState: 'Media disconnected', mediaDisconnected: true, mac: '00-00-00-00-00-00-00-E0', dhcpEnabled: false, autoconfig: true, description: 'Microsoft ISATAP Adapter #2' });
    expect(t.ipv4).toEqual([]);
  });

  it('gives the same result for LF and CRLF', () => {
    const lf = parseIpconfig(fx('ipconfig-plain.txt').replace(/\r\n/g, '\n'), 'ipconfig.txt');
    expect(lf.value).toEqual(r.value);
  });
});

describe('parseIpconfig — localized', () => {
  it('German: Ethernet-Adapter headers, translated labels, one info issue naming the language', () => {
    const r = parseIpconfig(fx('ipconfig-de.txt'), 'ip.txt');
    expect(r.issues).toEqual([{ file: 'ip.txt', line: 4, severity: 'info', message: expect.stringContaining('German (de)') }]);
    expect(r.value.language).toBe('de');
    const [c] = r.value.compartments;
    expect(c).toMatchObject({ id: 1, implicit: true, hostName: 'WINNODE01', nodeType: 'Hybrid', ipRoutingEnabled: false, dnsSuffixSearchList: ['contoso.local'] });
    expect(c.adapters.map((a) => a.name)).toEqual(['vEthernet (Ethernet)', 'vEthernet (nat)', 'Ethernet 2']);
    const [eth, nat, e2] = c.adapters;
    expect(eth).toMatchObject({ kind: 'Ethernet', dnsSuffix: 'contoso.local', description: 'Hyper-V Virtual Ethernet Adapter', mac: '00-15-5D-01-02-03', dhcpEnabled: true, autoconfig: true, netbios: 'Aktiviert', gateways: ['192.168.10.1'], dnsServers: ['192.168.10.5', '192.168.10.6'] });
    expect(eth.ipv4).toEqual([{ address: '192.168.10.21', mask: '255.255.255.0', prefixLength: 24, preferred: true, status: 'Bevorzugt', autoconfigured: false, apipa: false, src: { file: 'ip.txt', line: 19 } }]);
    expect(eth.ipv6[0]).toMatchObject({ address: 'fe80::1c2d:3e4f:5a6b:7c8d', zone: '7', linkLocal: true, preferred: true });
    expect(eth.extra).toEqual({ 'Lease erhalten': 'Montag, 6. Mai 2024 08:15:02', 'Lease läuft ab': 'Dienstag, 14. Mai 2024 08:15:02', 'DHCP-Server': '192.168.10.1' });
    expect(nat).toMatchObject({ dhcpEnabled: false, gateways: [], dnsSuffix: '' });
    expect(nat.ipv4[0]).toMatchObject({ address: '172.20.112.1', prefixLength: 20 });
    expect(e2).toMatchObject({ mediaState: 'Medium getrennt', mediaDisconnected: true });
  });

  it('French: `Carte … :` headers, localized compartment banners, unknown label read by shape', () => {
    const r = parseIpconfig(fx('ipconfig-fr.txt'), 'ip.txt');
    expect(r.value.language).toBe('fr');
    expect(r.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    expect(r.issues.map((i) => i.message)).toEqual([
      expect.stringContaining('unknown label "Adresse fantaisie"'),
      expect.stringContaining('French (fr)'),
    ]);
    const cs = r.value.compartments;
    expect(cs.map((c) => [c.id, c.active, c.hostName])).toEqual([[1, true, 'NOEUDWIN02'], [4, undefined, 'NOEUDWIN02']]);
    expect(cs[0].ipRoutingEnabled).toBe(false);
    const host = cs[0].adapters[0];
    expect(host).toMatchObject({ kind: 'Ethernet', name: 'vEthernet (Ethernet)', mac: '00-15-5D-10-20-30', dhcpEnabled: false, autoconfig: true, gateways: ['10.0.5.1'], dnsServers: ['168.63.129.16'], netbios: 'Activé' });
    expect(host.ipv4[0]).toMatchObject({ address: '10.0.5.4', prefixLength: 24, status: 'préféré', preferred: true });
    expect(host.ipv6[0]).toMatchObject({ address: 'fe80::aa:bb:cc:dd', zone: '12', linkLocal: true });
    const pod = cs[1].adapters[0];
    expect(pod.name).toBe('vEthernet (9f1e2d3c4b5a_cbr0)');
    expect(pod.ipv4.map((x) => x.address)).toEqual(['10.244.3.9', '10.244.3.77']);
    expect(pod.extra).toEqual({ 'Adresse fantaisie': '10.244.3.77(préféré)' });
  });

  it('an unknown language: structure by layout, values by shape, one info issue', () => {
    const text = [
      'Tietokone IP',
      '',
      'Ethernet-sovitin vEthernet (nat):',
      '',
      '   Kuvaus. . . . . . . . . . . . . . : Hyper-V Virtual Ethernet Adapter',
      '   Fyysinen osoite . . . . . . . . . : 00-15-5D-AA-BB-01',
      '   IPv4-osoite . . . . . . . . . . . : 172.20.0.1(Ensisijainen)',
      '   Aliverkon peite . . . . . . . . . : 255.255.0.0',
    ].join('\r\n');
    const r = parseIpconfig(text, 'ip.txt');
    const a = r.value.compartments[0].adapters[0];
    expect(a.name).toBe('vEthernet (nat)');
    expect(a.mac).toBe('00-15-5D-AA-BB-01');
    expect(a.ipv4).toEqual([expect.objectContaining({ address: '172.20.0.1', mask: '255.255.0.0', prefixLength: 16, status: 'Ensisijainen', preferred: false })]);
    expect(r.value.language).toBe('unknown');
    expect(r.issues.filter((i) => i.message.includes('unknown language'))).toHaveLength(1);
  });
});

describe('parseIpconfig — bad input', () => {
  it('empty and junk input: no compartments, no throw', () => {
    expect(parseIpconfig('', 'ip.txt').value.compartments).toEqual([]);
    expect(parseIpconfig('\u0000\u0001\ufffd\ufffd', 'ip.txt').value.compartments).toEqual([]);
    expect(parseIpconfig(undefined as unknown as string, 'ip.txt').value.compartments).toEqual([]);
  });

  it('truncated mid-adapter keeps what was read', () => {
    const full = fx('k8s-node-ip.txt');
    const cut = full.slice(0, full.indexOf('10.127.130.40'));
    const r = parseIpconfig(cut, 'ip.txt');
    const eth = r.value.compartments[0].adapters[1];
    expect(eth.name).toBe('vEthernet (Ethernet)');
    expect(eth.ipv4.map((x) => x.address)).toEqual(['10.127.130.36']);
  });

  it('mask without an address and a bad MAC give warnings with line numbers', () => {
    const r = parseIpconfig(['Ethernet adapter X:', '', '   Subnet Mask . . . . : 255.0.0.0', '   Physical Address. . : zz-zz'].join('\n'), 'ip.txt');
    expect(r.issues.map((i) => [i.line, i.severity])).toEqual([[3, 'warning'], [4, 'warning']]);
    expect(r.value.compartments[0].adapters[0].extra).toEqual({ 'Subnet Mask': '255.0.0.0', 'Physical Address': 'zz-zz' });
  });

  it('never throws or hangs on mutated input', () => {
    const texts = ['k8s-node-ip.txt', 'seed-compartment2.txt', 'ipconfig-fr.txt'].map(fx);
    fc.assert(fc.property(fc.nat(2), mutationArb, (k, ms) => {
      const r = parseIpconfig(mutate(texts[k], ms), 'ip.txt');
      expectWellFormedIssues(r.issues, 'ip.txt');
    }), { numRuns: 300 });
  });
});
