// Outputs in the shapes the corpus does not show (test/fixtures/recognise, each with a .src naming the
// real sample it is modelled on): localized, console-wrapped, quoted, indented, PowerShell 7, CRI-prefixed
// logs, event tables. Read under a neutral name: the content alone must say what they are. The
// expectations repeat each .src's "expect:" line.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { readOne, repo, type Read } from './read-sample.ts';
import type { ParsedFile } from '../../../parsers/bundle/parsed-file.ts';

const dir = path.join(repo, 'test/fixtures/recognise');
type R = Read & { p: ParsedFile };
const NAME = 'pasted.txt';
function content<T extends ParsedFile['content']['type']>(p: ParsedFile, type: T): Extract<ParsedFile['content'], { type: T }> {
  expect(p.content.type).toBe(type);
  return p.content as Extract<ParsedFile['content'], { type: T }>;
}
const warnings = (r: R) => r.p.issues.filter((i) => i.severity === 'warning');

/** The same two endpoints, compact JSON cut by a console at `width` columns: read as if never cut. */
const compactWrapped = (width: number) => ({
  kind: 'endpoint', format: /HNS endpoints \(JSON\)/,
  check: (r: R) => {
    const eps = content(r.p, 'hns').value.endpoints;
    expect(eps.map((e) => [e.id, e.ip, e.mac, e.name, e.isRemote, e.outboundNat.flatMap((o) => o.exceptions)])).toEqual([
      ['8f2a6c31-5e44-4f9b-a2c7-1d3e5f708192', '10.244.1.5', '00-15-5D-AB-CD-05', 'd1f8e2c3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6e7f809_cbr0', false, ['10.244.0.0/16', '10.96.0.0/12']],
      ['9f2a6c31-5e44-4f9b-a2c7-1d3e5f708193', '10.244.2.7', '02-11-0A-F4-02-07', 'Ethernet', true, []],
    ]);
    expect(r.p.issues.map((i) => [i.severity, i.message.replace(/\d+ line breaks/, 'N line breaks')])).toEqual([
      ['info', `compact JSON hard-wrapped at ${width} columns (a console copy): N line breaks joined again`],
      ['info', 'the PowerShell prompt after the JSON not read'],
    ]);
  },
});

/** hnsdiag list all under quote marks of any depth, with or without their space: read as if unquoted. */
const quotedListAll = (marks: RegExp) => ({
  kind: 'hnsdiag', format: /hnsdiag list all/,
  check: (r: R) => {
    const d = content(r.p, 'hnsdiag').value;
    expect(d.networks.map((n) => n.name)).toEqual(['cbr0', 'nat']);
    expect(d.endpoints.map((e) => e.name)).toEqual(['cbr0_ep', 'Ethernet', 'cid-99cd50b7893d79974c5f6edf92cdd4d3b0347b3a991fc93adae095a7f71b2c3d']);
    expect(r.counts).toMatchObject({ networks: 2, endpoints: 3, remoteEndpoints: 1, loadBalancers: 2 });
    expect(warnings(r)).toEqual([]);
    expect(r.p.issues.some((i) => marks.test(i.message))).toBe(true);
  },
});

/** ipconfig /allcompartments /all in another language: both compartments, the first active, by their titles. */
const compartmentsIn = (language: string, host: string) => ({
  kind: 'ip', format: /^ipconfig \/allcompartments \/all$/,
  check: (r: R) => {
    const v = content(r.p, 'ip').value;
    expect(v.language).toBe(language);
    expect(v.compartments.map((c) => [c.id, c.active ?? false, c.hostName, c.adapters.map((a) => [a.name, a.ipv4.map((x) => `${x.address}/${x.prefixLength}`), a.gateways])])).toEqual([
      [1, true, host, [['vEthernet (Ethernet)', ['10.10.0.21/16'], ['10.10.0.1']]]],
      [3, false, host, [['vEthernet (a1b2c3d4e5f6_cbr0)', ['10.244.1.5/24'], ['10.244.1.1']]]],
    ]);
    expect(warnings(r)).toEqual([]);
  },
});

const EXPECT: Record<string, { kind: string; format: RegExp; check: (r: R) => void }> = {
  'azure-cns.txt': {
    kind: 'log', format: /Azure CNI \(azure-cns\)/,
    check: (r) => {
      const l = content(r.p, 'log').value;
      expect(l.component).toBe('azure-cns');
      expect(l.events.map((e) => [e.pid, e.level ?? null, e.component])).toEqual([[4928, null, 'azure-cns'], [4928, null, 'azure-cns'], [4928, 'error', 'azure-cns']]);
      expect(l.events[2].hnsErrors!.map((h) => h.name)).toEqual(['HCN_E_INVALID_IP']);
      expect(l.events[2].time).toMatchObject({ precision: 'full', ms: Date.UTC(2025, 2, 28, 10, 28, 50) });
    },
  },
  'cni-conflist-flannel-ps7.json': {
    kind: 'cni-config', format: /CNI \.conflist/,
    check: (r) => {
      const c = content(r.p, 'cni-config').value;
      expect(c).toMatchObject({ name: 'flannel.4096', cniVersion: '0.2.0' });
      expect(c.plugins.map((p) => [p.type, p.dnsServers, p.exceptionList.map((e) => e.value)])).toEqual([['flannel', ['10.96.0.10'], ['10.244.0.0/16', '10.96.0.0/12']]]);
    },
  },
  'empty-paste.txt': {
    kind: 'unknown', format: /empty/,
    check: (r) => expect(warnings(r).map((i) => i.message)).toEqual([expect.stringMatching(/is empty/)]),
  },
  'get-netipaddress-list.txt': {
    kind: 'ip', format: /Get-NetIPAddress/,
    check: (r) => {
      const v = content(r.p, 'ip').value;
      expect(v.netIpAddresses.map((a) => [a.ipAddress, a.prefixLength, a.interfaceAlias])).toEqual([['10.244.1.2', 32, 'vEthernet (cbr0_ep)'], ['10.0.0.4', 24, 'vEthernet (Ethernet)']]);
    },
  },
  'get-winevent-hns.txt': {
    kind: 'log', format: /Windows event log/,
    check: (r) => {
      const l = content(r.p, 'log').value;
      expect(l.component).toBe('eventlog');
      expect(l.events.map((e) => [e.level, e.fields?.id, e.time?.precision])).toEqual([['error', '1102', 'time'], ['warning', '1105', 'time'], ['info', '1001', 'time'], ['info', '1000', 'time']]);
      expect(l.events[0].time!.tod).toBe((16 * 3600 + 5 * 60 + 6) * 1000);
      expect(l.events[0].hnsErrors!.map((h) => h.code)).toEqual(['0x803b002f']);
    },
  },
  'hns-endpoint-json-quoted-indented.txt': {
    kind: 'endpoint', format: /HNS endpoints \(ConvertTo-Json, Windows PowerShell 5\.1 layout\)/,
    check: (r) => {
      const eps = content(r.p, 'hns').value.endpoints;
      expect(eps.map((e) => [e.ip, e.isRemote, e.outboundNat.flatMap((o) => o.exceptions)])).toEqual([['10.244.1.5', false, ['10.244.0.0/16', '10.96.0.0/12']], ['10.244.2.7', true, []]]);
      expect(r.counts).toMatchObject({ endpoints: 2, localEndpoints: 1, remoteEndpoints: 1 });
      expect(r.p.issues.some((i) => /quote marks removed.*code-block indentation of 4 spaces/.test(i.message))).toBe(true);
    },
  },
  'hns-endpoint-json-compress-wrapped-80.txt': compactWrapped(80),
  'hns-endpoint-json-compress-wrapped-100.txt': compactWrapped(100),
  'hns-endpoint-json-compress-wrapped-120.txt': compactWrapped(120),
  'hns-namespace-list.txt': {
    kind: 'namespaces', format: /Get-HnsNamespace list view/,
    check: (r) => {
      const ns = content(r.p, 'hns').value.namespaces;
      expect(ns.map((n) => [n.id, n.compartmentId, n.isDefault])).toEqual([['910f7d92-ba2d-4c3f-98ae-7c0ac590d2dc', 1, true], ['37b9e55c-5ec5-45b6-969f-8585a89dc6e5', 5, false]]);
    },
  },
  'hns-network-json-ps7.txt': {
    kind: 'network', format: /PowerShell 7 layout/,
    check: (r) => {
      const nets = content(r.p, 'hns').value.networks;
      expect(nets.map((n) => [n.name, n.type, n.subnets, n.managementIp])).toEqual([
        ['cbr0', 'l2bridge', [{ prefix: '10.244.1.0/24', gateway: '10.244.1.1' }], '10.0.0.4'],
        ['nat', 'nat', [{ prefix: '172.28.48.0/20', gateway: '172.28.48.1' }], undefined],
      ]);
      expect(warnings(r)).toEqual([]);
    },
  },
  'hns-network-list-wrapped-80.txt': {
    kind: 'network', format: /Get-HnsNetwork list view/,
    check: (r) => {
      const [n] = content(r.p, 'hns').value.networks;
      expect(n).toMatchObject({ id: 'cc63922a-97a9-4b98-8855-651046aac04e', name: 'flannel.4096', type: 'overlay', managementIp: '192.168.79.40', subnets: [{ prefix: '10.244.1.0/24', gateway: '10.244.1.1' }] });
      expect(n.remoteSubnetRoutes).toEqual([
        { destinationPrefix: '10.244.0.0/24', providerAddress: '192.168.79.39', isolationId: 4096, drMac: 'BA-C1-6F-91-17-C7' },
        { destinationPrefix: '10.244.2.0/24', providerAddress: '192.168.79.41', isolationId: 4096, drMac: 'BA-C1-6F-91-17-C8' },
      ]);
    },
  },
  'hns-policylist-list-elb.txt': {
    kind: 'policy', format: /Get-HnsPolicyList list view/,
    check: (r) => {
      const lbs = content(r.p, 'hns').value.loadBalancers;
      expect(lbs.map((l) => [l.id, l.ports, l.dsr, l.sourceVip, l.endpointIds.length, l.vips])).toEqual([
        ['0a41f6c4-8a11-4db5-9e8f-2b0c7c5d6e01', [{ protocol: 17, internalPort: 53, externalPort: 53 }], false, '10.244.1.2', 2, []],
        ['1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9', [{ protocol: 6, internalPort: 6443, externalPort: 443 }], true, '10.244.1.2', 1, []],
      ]);
      expect(lbs[1].networkId).toBe('93c59a4b-f5c0-42aa-be09-e7480de1ff3d');
      // The cut VIPs are said, per load balancer, with its line.
      expect(warnings(r).map((i) => [i.line, /Policies\[\]\.VIPs/.test(i.message)])).toEqual([[3, true], [18, true]]);
      expect(r.counts.loadBalancers).toBe(2);
    },
  },
  'hns-v1-rest-answer-pretty.txt': {
    kind: 'endpoint', format: /HNS REST answer/,
    check: (r) => {
      expect(content(r.p, 'hns').value.endpoints.map((e) => [e.ip, e.networkName])).toEqual([['10.244.3.12', 'cbr0']]);
      expect(warnings(r).map((i) => [i.line, i.message])).toEqual([[15, 'HNS answered with an error: Element not found. (ErrorCode 2147943568)']]);
    },
  },
  'hnsdiag-list-networks.txt': {
    kind: 'hnsdiag', format: /hnsdiag listing/,
    check: (r) => {
      expect(content(r.p, 'hnsdiag').value.networks.map((n) => [n.name, n.id])).toEqual([['vxlan0', '5e2837e0-1e0d-461e-833b-afbd2afb4583'], ['nat', 'f413e630-cc75-4b89-9ed4-fcd57324153b']]);
      expect(r.counts.networks).toBe(2);
    },
  },
  'hnsdiag-list-all-quoted-reply.txt': quotedListAll(/"> " quote marks \(2 levels\) removed from 22 lines/),
  'hnsdiag-list-all-quoted-nospace.txt': quotedListAll(/">" quote marks removed from 20 lines/),
  'hnsdiag-list-all-wrapped-80.txt': {
    kind: 'hnsdiag', format: /hnsdiag list all/,
    check: (r) => {
      const d = content(r.p, 'hnsdiag').value;
      expect(d.endpoints.map((e) => [e.name, e.id, e.networkName])).toEqual([
        ['cbr0_ep', '8c956a28-97db-40a5-abf0-f101af879b0d', 'cbr0'],
        ['Ethernet', '611fb097-51a4-45cc-9d61-99e0e7cd4de5', 'cbr0'],
        ['cid-99cd50b7893d79974c5f6edf92cdd4d3b0347b3a991fc93adae095a7f71b2c3d', '048cd973-b5db-45a6-9c65-16dec22e871d', 'cbr0'],
      ]);
      expect(d.loadBalancers.map((l) => [l.vips, l.dipEndpointIds])).toEqual([
        [['10.96.0.10'], ['048cd973-b5db-45a6-9c65-16dec22e871d', '8c956a28-97db-40a5-abf0-f101af879b0d']],
        [['10.96.0.1'], ['611fb097-51a4-45cc-9d61-99e0e7cd4de5']],
      ]);
      expect(r.counts).toMatchObject({ networks: 2, endpoints: 3, localEndpoints: 2, loadBalancers: 2 });
      expect(warnings(r)).toEqual([]);
      expect(r.p.issues).toContainEqual(expect.objectContaining({ line: 11, severity: 'info', message: '3 hnsdiag rows hard-wrapped at 80 columns (a console copy) joined again, from line 11' }));
    },
  },
  'hnsdiag-list-namespaces.txt': {
    kind: 'hnsdiag', format: /hnsdiag list namespaces/,
    check: (r) => {
      expect(content(r.p, 'hnsdiag').value.namespaces.map((n) => n.endpointIds.length)).toEqual([1, 0, 2]);
    },
  },
  'hnsdiag-list-adapters.txt': {
    kind: 'hnsdiag', format: /hnsdiag list adapters/,
    check: (r) => {
      const d = content(r.p, 'hnsdiag').value;
      expect(d.adapters.map((a) => [a.id, a.name, a.index, a.type, a.compartment])).toEqual([
        ['0694b065-e10b-4a86-a34a-2c3f88b2909e', 'Ethernet', 5, 'ethernet', 1],
        ['5b3f1d2e-0a9c-4b8d-9e7f-6a5b4c3d2e10', 'vEthernet (Ethernet)', 12, 'ethernet', 1],
        ['8c7d6e5f-4a3b-4c2d-9e1f-0a9b8c7d6e5f', 'vEthernet (d1f8e2c3b4a5968_cbr0)', 31, 'ethernet', 4],
      ]);
      expect(warnings(r)).toEqual([]);
    },
  },
  'ipconfig-all-de.txt': {
    kind: 'ip', format: /ipconfig \/all/,
    check: (r) => {
      const v = content(r.p, 'ip').value;
      expect(v.language).toBe('de');
      const [c] = v.compartments;
      expect(c.hostName).toBe('akswin000001');
      expect(c.adapters.map((a) => [a.name, a.ipv4.map((x) => `${x.address}/${x.prefixLength}`), a.gateways, a.dnsServers])).toEqual([
        ['vEthernet (Ethernet)', ['10.240.0.4/16'], ['10.240.0.1'], ['168.63.129.16']],
        ['vEthernet (nat)', ['172.28.48.1/20'], [], []],
      ]);
    },
  },
  'ipconfig-allcompartments-es.txt': compartmentsIn('es', 'winnode-es01'),
  'ipconfig-allcompartments-zh.txt': compartmentsIn('zh', 'winnode-zh01'),
  'ipconfig-allcompartments-ja.txt': compartmentsIn('ja', 'WIN-NODE-JA01'),
  'ipconfig-all-fr.txt': {
    kind: 'ip', format: /^ipconfig \/all$/,
    check: (r) => {
      const v = content(r.p, 'ip').value;
      expect(v.language).toBe('fr');
      const [c] = v.compartments;
      expect(c.hostName).toBe('winnode-fr01');
      expect(c.adapters.map((a) => [a.name, a.mac, a.ipv4.map((x) => `${x.address}/${x.prefixLength}`), a.gateways, a.dnsServers, a.mediaDisconnected ?? false])).toEqual([
        ['vEthernet (Ethernet)', '00-15-5D-01-02-03', ['192.168.20.11/24'], ['192.168.20.1'], ['192.168.20.2'], false],
        ['vEthernet (cbr0_ep)', '00-15-5D-01-02-04', [], [], [], true],
      ]);
      expect(warnings(r)).toEqual([]);
    },
  },
  'ipconfig-all-es.txt': {
    kind: 'ip', format: /^ipconfig \/all$/,
    check: (r) => {
      const v = content(r.p, 'ip').value;
      expect(v.language).toBe('es');
      const [c] = v.compartments;
      expect(c.hostName).toBe('winnode-es01');
      expect(c.adapters.map((a) => [a.name, a.ipv4.map((x) => `${x.address}/${x.prefixLength}`), a.gateways, a.dnsServers, a.netbios])).toEqual([
        ['vEthernet (Ethernet)', ['10.10.0.21/16'], ['10.10.0.1'], ['10.10.0.2', '10.10.0.3'], 'habilitado'],
      ]);
      expect(warnings(r)).toEqual([]);
    },
  },
  'ipconfig-all-ja.txt': {
    kind: 'ip', format: /ipconfig \/all/,
    check: (r) => {
      const v = content(r.p, 'ip').value;
      expect(v.language).toBe('ja');
      expect(v.compartments[0].hostName).toBe('WIN-K8S-NODE2');
      expect(v.compartments[0].adapters[0].netbios).toBe('有効');
      expect(v.compartments[0].adapters.map((a) => [a.name, a.ipv4.map((x) => `${x.address}/${x.prefixLength}`), a.gateways, a.dnsServers])).toEqual([['vEthernet (Ethernet 2)', ['10.1.2.34/24'], ['10.1.2.1'], ['10.1.2.10']]]);
    },
  },
  'ipconfig-all-zh.txt': {
    kind: 'ip', format: /ipconfig \/all/,
    check: (r) => {
      const v = content(r.p, 'ip').value;
      expect(v.language).toBe('zh');
      expect(v.compartments[0].hostName).toBe('winnode-01');
      expect(v.compartments[0].adapters.map((a) => [a.name, a.ipv4.map((x) => `${x.address}/${x.prefixLength}`), a.dnsServers, a.mediaDisconnected ?? false])).toEqual([
        ['vEthernet (Ethernet)', ['192.168.10.21/24'], ['192.168.10.2', '192.168.10.3'], false],
        ['vEthernet (vxlan0)', [], [], true],
      ]);
    },
  },
  'kube-proxy-cri.log': {
    kind: 'log', format: /CRI log format \(kube-proxy\)/,
    check: (r) => {
      const l = content(r.p, 'log').value;
      expect(l.events.map((e) => [e.line, e.format, e.level ?? null])).toEqual([[1, 'cri', 'info'], [2, 'cri', 'warning'], [3, 'cri', 'error'], [4, 'cri', 'info']]);
      // The partial (P) record and the full (F) one that ends it are one record again, on its first line.
      expect([l.events[3].message, l.events[3].endLine]).toEqual(['Syncing policies', 5]);
      expect(l.events[1].hnsErrors!.map((h) => h.name)).toEqual(['HCN_E_POLICY_ALREADY_EXISTS']);
      expect(l.events[2].hnsErrors!.map((h) => [h.code, h.name])).toEqual([['0x803b000d', 'HCN_E_INVALID_POLICY']]);
      // The klog field the F line carries is read as one of the record's.
      expect(l.events[3].fields).toMatchObject({ stream: 'stderr', joined: '2', service: 'kube-system/kube-dns:dns' });
      expect(l.events[3].fields!.partial).toBeUndefined();
      expect(l.events[0].time).toMatchObject({ precision: 'full', ms: Date.UTC(2024, 1, 1, 10, 15, 1) + 123.456789 });
    },
  },
  'kubectl-get-events-windows.txt': {
    kind: 'log', format: /kubectl get events/,
    check: (r) => {
      const l = content(r.p, 'log').value;
      expect(l.events.map((e) => [e.level, e.fields?.reason, e.fields?.object])).toEqual([
        ['info', 'Scheduled', 'pod/iis-7b9f6d5c4-x2kqp'], ['warning', 'FailedCreatePodSandBox', 'pod/iis-7b9f6d5c4-x2kqp'], ['info', 'SandboxChanged', 'pod/iis-7b9f6d5c4-x2kqp'],
      ]);
      expect(l.events[1].ids).toEqual(['c1f0e2d3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6e7f809']);
      expect(l.events[1].hnsErrors!.map((h) => h.name)).toEqual(['HCN_E_INVALID_IP']);
    },
  },
  'not-an-output.txt': {
    kind: 'unknown', format: /not recognised/,
    check: (r) => {
      const [w] = warnings(r);
      expect(w).toMatchObject({ file: NAME, line: 1 });
      expect(w.message).toMatch(/not recognised .* first line "Hi team,"/);
    },
  },
  'route-print-de.txt': {
    kind: 'routes', format: /^route print$/,
    check: (r) => {
      const v = content(r.p, 'routes').value;
      expect([v.interfaces.length, v.ipv4Active.length, v.ipv4Active.filter((x) => x.onLink).length, v.ipv4Persistent.length]).toEqual([3, 6, 4, 0]);
      expect(v.ipv4Active[3]).toMatchObject({ destination: '10.244.2.0', prefixLength: 24, gateway: '10.240.0.5', onLink: false });
    },
  },
  'route-print-zh-netstat.txt': {
    kind: 'routes', format: /netstat -r/,
    check: (r) => {
      const v = content(r.p, 'routes').value;
      expect([v.interfaces.length, v.ipv4Active.length, v.ipv4Active.filter((x) => x.onLink).length, v.ipv4Persistent.length]).toEqual([2, 4, 3, 1]);
      expect(v.ipv4Persistent[0]).toMatchObject({ destination: '0.0.0.0', gateway: '192.168.10.1', metricText: '默认' });
    },
  },
  'vfp-list-rule-quoted.txt': {
    kind: 'vfp', format: /vfpctrl rule listing/,
    check: (r) => {
      expect(r.model.ports!.map((p) => p.name)).toEqual(['8f2a6c31-5e44-4f9b-a2c7-1d3e5f708192']);
      // The quoted command names the layer: the groups are its (`/layer SLB_NAT_LAYER`).
      expect(r.counts.vfpLayers).toBe(1);
      expect(r.model.vfp!.getPolicy('8f2a6c31-5e44-4f9b-a2c7-1d3e5f708192')!.layers.map((l) => l.id)).toEqual(['SLB_NAT_LAYER']);
      const rules = r.model.vfp!.getPolicy('8f2a6c31-5e44-4f9b-a2c7-1d3e5f708192')!.layers.flatMap((l) => l.groups.flatMap((g) => g.rules));
      expect(rules.map((x) => [x.name, x.type, x.dipRanges.length])).toEqual([['LB_DSR_10.96.0.10_53_53_17', 'lbnat', 2]]);
    },
  },
};

describe('variants the corpus does not show (test/fixtures/recognise)', () => {
  const files = readdirSync(dir).filter((f) => !f.endsWith('.src') && f !== 'README.md').sort();
  it('every fixture has a .src and an expectation here', () => {
    expect(files).toEqual(Object.keys(EXPECT).sort());
    const srcs = readdirSync(dir).filter((f) => f.endsWith('.src')).map((f) => f.slice(0, -4)).sort();
    expect(srcs).toEqual(files);
  });
  for (const f of files) {
    const e = EXPECT[f];
    if (!e) continue;
    it(`${f}: ${e.kind}`, () => {
      const r = readOne(path.join(dir, f), NAME);
      expect(r.p.kind).toBe(e.kind);
      expect(r.p.recognition!.format).toMatch(e.format);
      if (e.kind !== 'unknown') expect(r.p.recognition!.confidence).toBeGreaterThanOrEqual(0.35);
      e.check(r);
    });
  }
});
