import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseRoutePrint } from '../../../parsers/routes/route-print.ts';
import { parseRoutesTxt } from '../../../parsers/routes/routes-txt.ts';
import { expectWellFormedIssues, mutate, mutationArb } from '../ps/mutations.ts';
import { LINEAR_LIMIT, workRatio } from '../../helpers/thread-cpu.ts';

const fx = (name: string) => readFileSync(new URL(`../../fixtures/routes/${name}`, import.meta.url), 'utf8');
const src = (line: number) => ({ file: 'routes.txt', line });

describe('parseRoutesTxt — k8s node routes.txt (route print + Get-NetRoute)', () => {
  const r = parseRoutesTxt(fx('k8s-node-routes.txt'), 'routes.txt');
  const v = r.value;

  it('reads without issues', () => expect(r.issues).toEqual([]));

  it('interface list: with MAC, without MAC (loopback), 8-byte tunnel address', () => {
    expect(v.interfaces).toEqual([
      { index: 24, mac: '00-15-5D-8A-3B-01', description: 'Hyper-V Virtual Ethernet Adapter', src: src(3) },
      { index: 45, mac: '00-15-5D-8A-3B-01', description: 'Hyper-V Virtual Ethernet Adapter #3', src: src(4) },
      { index: 41, mac: '00-15-5D-E1-50-00', description: 'Hyper-V Virtual Ethernet Adapter #2', src: src(5) },
      { index: 6, mac: '00-15-5D-8A-3B-02', description: 'Microsoft Hyper-V Network Adapter #2', src: src(6) },
      { index: 1, description: 'Software Loopback Interface 1', src: src(7) },
      { index: 13, mac: '00-00-00-00-00-00-00-E0', description: 'Microsoft ISATAP Adapter #2', src: src(8) },
    ]);
  });

  it('IPv4 active routes with On-link gateways', () => {
    expect(v.ipv4Active).toHaveLength(14);
    expect(v.ipv4Active[0]).toEqual({ destination: '0.0.0.0', netmask: '0.0.0.0', prefixLength: 0, gateway: '10.127.130.1', onLink: false, interface: '10.127.130.36', metric: 15, metricText: '15', src: src(15) });
    expect(v.ipv4Active[1]).toEqual({ destination: '10.127.130.0', netmask: '255.255.255.0', prefixLength: 24, gateway: 'On-link', onLink: true, interface: '10.127.130.36', metric: 271, metricText: '271', src: src(16) });
    expect(v.ipv4Active.filter((x) => x.destination.startsWith('10.244.') && !x.onLink).map((x) => [x.destination, x.gateway])).toEqual([
      ['10.244.0.0', '10.127.130.37'], ['10.244.17.0', '10.127.130.36'], ['10.244.18.0', '10.127.130.35'],
    ]);
    expect(v.ipv4Active[13]).toMatchObject({ destination: '255.255.255.255', prefixLength: 32, src: src(28) });
  });

  it('IPv4 persistent routes, metric `Default` kept as text', () => {
    expect(v.ipv4Persistent).toEqual([
      { destination: '10.244.0.0', netmask: '255.255.255.0', prefixLength: 24, gateway: '10.127.130.37', onLink: false, metric: 1, metricText: '1', src: src(32) },
      { destination: '0.0.0.0', netmask: '0.0.0.0', prefixLength: 0, gateway: '10.127.130.1', onLink: false, metricText: 'Default', src: src(33) },
    ]);
  });

  it('IPv6 active routes, a wrapped row joined with its gateway line; persistent None', () => {
    expect(v.ipv6Active.map((x) => [x.ifIndex, x.metric, x.destination, x.prefixLength, x.gateway, x.onLink, x.src.line])).toEqual([
      [1, 331, '::1/128', 128, 'On-link', true, 40],
      [24, 271, 'fe80::/64', 64, 'On-link', true, 41],
      [24, 271, 'fe80::4d2c:1b0e:9a77:52a1/128', 128, 'On-link', true, 42],
      [1, 331, 'ff00::/8', 8, 'On-link', true, 44],
      [24, 271, 'ff00::/8', 8, 'On-link', true, 45],
    ]);
    expect(v.ipv6Persistent).toEqual([]);
  });

  it('Get-NetRoute rows: blank ifMetric, Persiste... truncation, IPv6 next hop ::', () => {
    expect(v.netRoutes).toHaveLength(10);
    expect(v.netRoutes[0]).toEqual({ ifIndex: 45, destinationPrefix: '255.255.255.255/32', nextHop: '0.0.0.0', routeMetric: 256, ifMetric: 15, policyStore: 'ActiveStore', truncated: false, extra: {}, src: src(52) });
    expect(v.netRoutes[3]).toEqual({ ifIndex: 24, destinationPrefix: '10.244.0.0/24', nextHop: '10.127.130.37', routeMetric: 1, policyStore: 'Persiste...', truncated: true, extra: {}, src: src(55) });
    expect(v.netRoutes[6]).toMatchObject({ ifIndex: 6, destinationPrefix: '10.20.0.0/16', routeMetric: 256, policyStore: 'ActiveStore' });
    expect(v.netRoutes[6].ifMetric).toBeUndefined();
    expect(v.netRoutes[8]).toMatchObject({ ifIndex: 24, destinationPrefix: 'fe80::4d2c:1b0e:9a77:52a1/128', nextHop: '::', ifMetric: 15 });
  });

  it('LF input gives the same result; parseRoutePrint alone reads the same route print part', () => {
    expect(parseRoutesTxt(fx('k8s-node-routes.txt').replace(/\r\n/g, '\n'), 'routes.txt').value).toEqual(v);
    const rp = parseRoutePrint(fx('k8s-node-routes.txt').split('ifIndex DestinationPrefix')[0], 'routes.txt');
    expect(rp.value.ipv4Active).toEqual(v.ipv4Active);
    expect(rp.value.interfaces).toEqual(v.interfaces);
  });
});

const SEED_ROWS: [number, string, string, number, number][] = [
  [45, '255.255.255.255/32', '0.0.0.0', 256, 15], [41, '255.255.255.255/32', '0.0.0.0', 256, 50], [24, '255.255.255.255/32', '0.0.0.0', 256, 15], [1, '255.255.255.255/32', '0.0.0.0', 256, 75],
  [45, '224.0.0.0/4', '0.0.0.0', 256, 15], [41, '224.0.0.0/4', '0.0.0.0', 256, 50], [24, '224.0.0.0/4', '0.0.0.0', 256, 15], [1, '224.0.0.0/4', '0.0.0.0', 256, 75],
  [41, '172.17.63.255/32', '0.0.0.0', 256, 50], [41, '172.17.48.1/32', '0.0.0.0', 256, 50], [41, '172.17.48.0/20', '0.0.0.0', 256, 50],
  [1, '127.255.255.255/32', '0.0.0.0', 256, 75], [1, '127.0.0.1/32', '0.0.0.0', 256, 75], [1, '127.0.0.0/8', '0.0.0.0', 256, 75],
  [45, '10.244.19.255/32', '0.0.0.0', 256, 15], [45, '10.244.19.2/32', '0.0.0.0', 256, 15], [45, '10.244.19.0/24', '0.0.0.0', 256, 15],
  [24, '10.244.18.0/24', '10.127.130.35', 256, 15], [24, '10.244.17.0/24', '10.127.130.36', 256, 15], [24, '10.244.0.0/24', '10.127.130.37', 256, 15],
  [24, '10.127.130.255/32', '0.0.0.0', 256, 15], [24, '10.127.130.38/32', '0.0.0.0', 256, 15], [24, '10.127.130.0/24', '0.0.0.0', 256, 15],
  [45, '0.0.0.0/0', '10.244.19.1', 256, 15], [24, '0.0.0.0/0', '10.127.130.1', 256, 15],
];

describe('parseRoutesTxt — seed Get-NetRoute excerpt', () => {
  it('the verbatim Markdown table of the seed (header wrapped over rows)', () => {
    const r = parseRoutesTxt(fx('seed-get-netroute-markdown.md'), 'routes.txt');
    expect(r.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    expect(r.value.netRoutes.map((x) => [x.ifIndex, x.destinationPrefix, x.nextHop, x.routeMetric, x.ifMetric])).toEqual(SEED_ROWS);
    expect(r.value.netRoutes[0].src).toEqual(src(6));
    expect(r.value.ipv4Active).toEqual([]);
  });

  it('the same table as PowerShell text in a narrow console (ifMetric header wrapped, PolicyStore dropped, prompt lines)', () => {
    const r = parseRoutesTxt(fx('seed-get-netroute-narrow.txt'), 'routes.txt');
    // The prompt is said as the command line it is, not as a route print line not understood.
    expect(r.issues).toEqual([{ file: 'routes.txt', line: 1, severity: 'info', message: 'the command line not read: "PS C:\\Users\\Administrator> Get-NetRoute"' }]);
    expect(r.value.netRoutes.map((x) => [x.ifIndex, x.destinationPrefix, x.nextHop, x.routeMetric, x.ifMetric])).toEqual(SEED_ROWS);
    expect(r.value.netRoutes.every((x) => x.policyStore === undefined)).toBe(true);
    expect(r.value.netRoutes[24].src).toEqual(src(32));
  });
});

describe('parseRoutePrint — variants', () => {
  it('German route print: localized section titles and `Auf Verbindung` gateway', () => {
    const text = [
      '===========================================================================',
      'Schnittstellenliste',
      ' 12...00 15 5d 01 02 03 ......Hyper-V Virtual Ethernet Adapter',
      '  1...........................Software Loopback Interface 1',
      '===========================================================================',
      '',
      'IPv4-Routentabelle',
      '===========================================================================',
      'Aktive Routen:',
      '     Netzwerkziel    Netzwerkmaske          Gateway    Schnittstelle Metrik',
      '          0.0.0.0          0.0.0.0     192.168.10.1    192.168.10.21     25',
      '     192.168.10.0    255.255.255.0   Auf Verbindung    192.168.10.21    281',
      '===========================================================================',
      'Ständige Routen:',
      '  Keine',
      '',
      'IPv6-Routentabelle',
      '===========================================================================',
      'Aktive Routen:',
      ' If Metrik Netzwerkziel             Gateway',
      '  1    331 ::1/128                  Auf Verbindung',
      '===========================================================================',
      'Ständige Routen:',
      '  Keine',
    ].join('\r\n');
    const r = parseRoutePrint(text, 'routes.txt');
    expect(r.issues).toEqual([]);
    expect(r.value.interfaces.map((i) => i.index)).toEqual([12, 1]);
    expect(r.value.ipv4Active.map((x) => [x.destination, x.gateway, x.onLink, x.metric])).toEqual([
      ['0.0.0.0', '192.168.10.1', false, 25], ['192.168.10.0', 'Auf Verbindung', true, 281],
    ]);
    expect(r.value.ipv4Persistent).toEqual([]);
    expect(r.value.ipv6Active).toEqual([{ ifIndex: 1, metric: 331, destination: '::1/128', prefixLength: 128, gateway: 'Auf Verbindung', onLink: true, src: src(21) }]);
  });

  it('truncated inside the IPv4 table keeps the rows read so far', () => {
    const full = fx('k8s-node-routes.txt');
    const r = parseRoutesTxt(full.slice(0, full.indexOf('10.244.17.0')), 'routes.txt');
    expect(r.value.ipv4Active.map((x) => x.destination)).toEqual(['0.0.0.0', '10.127.130.0', '10.127.130.36', '10.127.130.255', '10.244.0.0']);
    expect(r.value.netRoutes).toEqual([]);
  });

  it('a wrapped IPv6 row cut before its gateway line is kept with a warning', () => {
    const r = parseRoutePrint(['IPv6 Route Table', 'Active Routes:', ' 24    271 fe80::4d2c:1b0e:9a77:52a1/128'].join('\n'), 'routes.txt');
    expect(r.value.ipv6Active).toEqual([{ ifIndex: 24, metric: 271, destination: 'fe80::4d2c:1b0e:9a77:52a1/128', prefixLength: 128, gateway: '', onLink: false, src: src(3) }]);
    expect(r.issues).toEqual([{ file: 'routes.txt', line: 3, severity: 'warning', message: expect.stringContaining('without a gateway') }]);
  });

  it('empty and junk input: a warning, no throw', () => {
    for (const t of ['', '\u0000\ufffd\u0001', 'not a route table']) {
      const r = parseRoutesTxt(t, 'routes.txt');
      expect(r.value.ipv4Active).toEqual([]);
      expect(r.issues.some((i) => i.severity === 'warning' && i.line === 0)).toBe(true);
    }
  });

  it('never throws or hangs on mutated input', () => {
    const texts = ['k8s-node-routes.txt', 'seed-get-netroute-markdown.md', 'seed-get-netroute-narrow.txt'].map(fx);
    fc.assert(fc.property(fc.nat(2), mutationArb, (k, ms) => {
      const r = parseRoutesTxt(mutate(texts[k], ms), 'routes.txt');
      expectWellFormedIssues(r.issues, 'routes.txt');
    }), { numRuns: 300 });
  });
});

describe('parseRoutesTxt — size', () => {
  it('reads a 20 000-row Get-NetRoute table, in time linear in its rows', () => {
    const table = (n: number) => {
      const rows = Array.from({ length: n }, (_, i) => `${String(i % 90 + 1).padEnd(7)} ${`10.${i >> 8 & 255}.${i & 255}.0/24`.padEnd(46)} ${'10.127.130.1'.padEnd(40)} ${'256'.padStart(11)} 15       ActiveStore`);
      return [
        'ifIndex DestinationPrefix                              NextHop                                  RouteMetric ifMetric PolicyStore',
        '------- -----------------                              -------                                  ----------- -------- -----------',
        ...rows,
      ].join('\r\n');
    };
    const text = table(20000);
    const r = parseRoutesTxt(text, 'routes.txt');
    expect(r.value.netRoutes).toHaveLength(20000);
    expect(r.issues).toEqual([]);
    // Sixteen times the rows, about sixteen times this thread's CPU (quadratic would be 256).
    const small = table(1250);
    expect(workRatio(() => parseRoutesTxt(small, 'routes.txt'), () => parseRoutesTxt(text, 'routes.txt'))).toBeLessThan(LINEAR_LIMIT);
  });
});
