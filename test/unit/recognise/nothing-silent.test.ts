// Nothing is ignored without a word: for every kind of file, text it does not recognise and a
// recognised file that yields nothing its kind should yield each get an issue with a line.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { recognise } from '../../../parsers/bundle/recognise.ts';
import { parseHnsFile } from '../../../parsers/hns/index.ts';
import { parseHnsdiag } from '../../../parsers/hnsdiag/index.ts';
import { parseIpTxt } from '../../../parsers/ipconfig/index.ts';
import { parseRoutesTxt } from '../../../parsers/routes/index.ts';
import { parseVmSwitchPorts, scanVfpOutput } from '../../../parsers/vfp/index.ts';
import { parseLogFile } from '../../../parsers/logs/index.ts';
import { parseCniBinListing, parseCniConfig } from '../../../parsers/cni/index.ts';
import { parseKubectlJson } from '../../../parsers/k8s/index.ts';
import path from 'node:path';
import { corpusDir, readFiles, readOne, repo } from './read-sample.ts';

const PROSE = 'Hello team,\nthe pods on this node cannot reach DNS.\n';
const enc = (s: string) => new TextEncoder().encode(s);
const notice = (issues: { severity: string; line: number; message: string }[]) => issues.filter((i) => i.severity !== 'info');

describe('each parser says when the text is not its output', () => {
  it.each([
    ['HNS objects', () => parseHnsFile(PROSE, 'f').issues, /no HNS objects found/],
    ['hnsdiag', () => parseHnsdiag(PROSE, 'f').issues, /no hnsdiag objects found/],
    ['ipconfig / Get-NetIP*', () => parseIpTxt(PROSE, 'f').issues, /no ipconfig, Get-NetIPAddress or Get-NetIPInterface output found/],
    ['route print / Get-NetRoute', () => parseRoutesTxt(PROSE, 'f').issues, /no route print or Get-NetRoute output found/],
    ['vSwitch ports', () => parseVmSwitchPorts(PROSE, 'f').issues, /text outside any port block/],
    ['VFP rules', () => scanVfpOutput(enc(PROSE), 'f').issues, /no VFP port policy/],
    ['logs', () => parseLogFile(PROSE, 'f').issues, /no line is in a log format hnsight knows/],
    ['CNI config', () => parseCniConfig(PROSE, 'f').issues, /not valid JSON/],
    ['CNI bin listing', () => parseCniBinListing(PROSE, 'f').issues, /no plugin executables/],
    ['kubectl JSON', () => parseKubectlJson(PROSE, 'f').issues, /no Kubernetes objects|outside the JSON/],
  ])('%s', (_what, run, message) => {
    const issues = run();
    expect(issues.some((i) => message.test(i.message)), JSON.stringify(issues)).toBe(true);
  });

  it('a text nothing recognises names its first line and the kinds it came closest to', () => {
    // One hnsdiag-looking row is not enough to claim it, but it is the closest.
    const text = 'see below\nEthernet         865986bc-8a40-4ebc-9916-c2c54e31e011 vpcbr0\n';
    const rec = recognise('', text);
    expect(rec.kind).toBe('unknown');
    expect(rec.near?.[0]).toMatchObject({ kind: 'hnsdiag' });
    const p = parseBundleFile('paste-1.txt', enc(text));
    expect(p.issues).toEqual([{ file: 'paste-1.txt', line: 1, severity: 'warning', message: expect.stringMatching(/not recognised .*first line "see below"; closest: hnsdiag/) }]);
  });

  it('an empty paste is said to be empty', () => {
    const p = parseBundleFile('paste-2.txt', enc('\n  \n'));
    expect(p.kind).toBe('unknown');
    expect(p.issues.map((i) => i.message)).toEqual(['paste-2.txt is empty: nothing to read']);
  });
});

describe('a recognised file that yields nothing its kind should yield says so, with the line', () => {
  it.each([
    ['network.txt', 'endpoint.txt', 'policy.txt', 'namespaces.txt', 'hnsdiag.txt', 'ip.txt', 'routes.txt', 'ports.txt', 'vfpOutput.txt', 'kube-proxy.log', '10-net.conflist', 'cni-bin.txt'],
  ].flat())('%s holding prose', (name) => {
    const p = parseBundleFile(name, enc(PROSE));
    expect(p.kind).not.toBe('unknown');
    expect(notice(p.issues).length, JSON.stringify(p.issues)).toBeGreaterThan(0);
    expect(p.issues.every((i) => i.file === name)).toBe(true);
  });

  it('a network without subnets', () => {
    const p = parseBundleFile('network.txt', enc('[\n  {"ID": "a1", "Name": "cbr0", "Type": "L2Bridge", "ManagementIP": "10.0.0.4"},\n  {"ID": "b2", "Name": "nat", "Type": "nat", "Subnets": [{"AddressPrefix": "172.28.48.0/20"}]}\n]\n'));
    expect(notice(p.issues)).toEqual([expect.objectContaining({ line: 2, message: 'network cbr0 has no subnets in this output' })]);
  });

  it('a policy list file without a load balancer', () => {
    const p = parseBundleFile('policy.txt', enc('[{"ID": "e1", "IPAddress": "10.244.1.5", "IsRemoteEndpoint": false}]'));
    expect(notice(p.issues).map((i) => [i.line, i.message])).toEqual([[1, 'a load balancer / policy list file without any load balancer in it']]);
  });

  it('a load balancer with no VIP, port or backend', () => {
    const p = parseBundleFile('policy.txt', enc('[\n{"ID": "l1", "References": [], "Policies": []}\n]'));
    expect(notice(p.issues).map((i) => [i.line, i.message])).toEqual([[2, 'load balancer l1 has no VIP, port or backend in this output']]);
  });

  it('an hnsdiag listing with section titles but no rows', () => {
    const p = parseBundleFile('hnsdiag.txt', enc('Networks:\nName             ID\n\nEndpoints:\nName             ID                                   Virtual Network Name\n'));
    expect(notice(p.issues).map((i) => i.message)).toEqual([expect.stringMatching(/no hnsdiag objects found/)]);
  });

  it('a CNI list with no plugin', () => {
    const p = parseBundleFile('10-x.conflist', enc('{"cniVersion":"0.4.0","name":"x","plugins":[]}'));
    expect(notice(p.issues).map((i) => i.message)).toEqual(['the plugins list is empty']);
  });

  it('kubectl JSON with no objects', () => {
    const p = parseBundleFile('k.json', enc('{"apiVersion":"v1","kind":"List","items":[]}'));
    expect(p.kind).toBe('kubectl');
    expect(notice(p.issues).length).toBeGreaterThan(0);
  });

  it('the inspect document carries what each file was read as and what it yielded', () => {
    const r = readFiles([{ name: 'a.txt', text: 'route print\nIPv4 Route Table\nActive Routes:\nNetwork Destination        Netmask          Gateway       Interface  Metric\n          0.0.0.0          0.0.0.0      10.0.0.1      10.0.0.4     15\n' }, { name: 'b.txt', text: PROSE }]);
    expect(r.doc.files.map((f) => [f.name, f.kind, f.format, f.yields])).toEqual([
      ['a.txt', 'routes', 'route print', { 'IPv4 active routes': 1 }],
      ['b.txt', 'unknown', 'not recognised', undefined],
    ]);
    expect(r.doc.files[0].confidence).toBeGreaterThan(0.5);
    expect(r.doc.files[0].reason).toMatch(/IPv4 route table title at line 2/);
  });
});

describe('hostile and random text never throws, hangs or goes unnamed', () => {
  const pieces = ['{', '}', '[', ']', '"ID": "a1",', '"Subnets": [', '@{', '{@{Type=ELB; VIPs=System.Object[]}', 'Name   : x', '    ', '> ', '\t', 'I0101 10:00:00.000000    1 x.go:1] msg', 'time="x" level=info msg="', 'LAYER :', 'RULE :', 'IPv4 Route Table', 'Networks:', '\\"ID\\":', '\n', '\r\n', 'é', '在链路上'];
  it('any mix of format fragments', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 120 }), fc.constantFrom('pasted.txt', 'network.txt', 'x.log', 'routes.txt', 'hnsdiag.txt'), (parts, name) => {
        const text = parts.join('');
        const p = parseBundleFile(name, enc(text));
        const lines = text.split(/\r\n|\n|\r/).length;
        expect(p.issues.every((i) => i.file === name && i.line >= 0 && i.line <= lines + 1)).toBe(true);
        if (p.kind === 'unknown') expect(p.issues.some((i) => i.severity === 'warning')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
  it('deep nesting and long lines stay bounded', () => {
    for (const text of ['{'.repeat(200_000), '@{a='.repeat(50_000), `Policies : ${'{'.repeat(100_000)}`, `"a":1,`.repeat(100_000), `x=${'"'.repeat(3)} `.repeat(20_000), `2024-01-01 10:00:00.000 [INFO][1] a.go 1: ${'k=v '.repeat(5000)}`]) {
      // A quadratic reader would run into the test's time limit; nothing here measures time.
      const p = parseBundleFile('pasted.txt', enc(text));
      expect(p.issues.every((i) => i.file === 'pasted.txt')).toBe(true);
    }
  });
});

describe('real pastes cut inside their last line, and command lines, are said for what they are (shared corpus)', () => {
  const dir = corpusDir();
  const read = (f: string) => readOne(path.join(dir ?? '', f), 'pasted.txt').p.issues;
  it.each([
    ['ipconfig-all-node__Azure-aks-engine-issue-2281.txt', 18, /^the text ends inside this line: "Lease Expires" without its value/],
    ['ipconfig-all-node__Azure-aks-engine-issue-853.txt', 24, /^the text ends inside this line: "DNS Servers" without its value/],
    ['ipconfig-all-in-pod-dual-nic__Azure-acs-engine-issue-418.txt', 17, /^the text ends inside this line: "DHCP Enabled" without its value/],
    ['get-netroute__kubernetes-sigs-sig-windows-tools-issue-215.txt', 12, /^the text ends inside this row: RouteMetric, ifMetric, PolicyStore are missing/],
    ['get-netipinterface__docker-for-win-issue-7179.txt', 13, /^the text ends inside this row: AddressFamily, .*PolicyStore are missing/],
    ['containerd-log-flannel__kubernetes-sigs-sig-windows-tools-issue-102.txt', 13, /^the text ends inside this line: "ti" is the start of a log line/],
    ['vfp-list-rule-acl-layer__mrolmedo-rke2windows-README.txt', 33, /^the text ends with "\(redacted\)": a note/],
    ['route-print-hyperv-host__microsoft-WSL-issue-5068.txt', 23, /^the text ends inside this line: "172\.22\.47\."/],
    ['route-print__Azure-acs-engine-issue-1713.txt', 18, /^the text ends inside this line: "10"/],
  ])('%s: line %i', (f, line, message) => {
    expect(dir, 'the shared corpus').toBeDefined();
    const hits = read(f).filter((i) => message.test(i.message));
    expect(hits.map((i) => [i.line, i.severity])).toEqual([[line, 'info']]);
  });

  it.each([
    ['get-netipinterface__docker-for-win-issue-7179.txt', 1, /^the command prompt line not read: "PS C:\\> Get-NetIPInterface/],
    ['ipconfig-plain-node__microsoft-SDN-Kubecluster-md.txt', 1, /^the command prompt line not read: "PS C:\\Users\\azureuser> ipconfig"/],
    ['route-print-hyperv-host__microsoft-WSL-issue-5068.txt', 1, /^the command line not read: "PS C:\\Windows\\System32> route print"/],
    // docker-netrestore's console line between two HNS answers: both networks are read; the line is said at its place.
    ['hns-v1-rest-json-nat-network__Masterwow3-docker-netrestore-README.txt', 4, /^1 line of other text between JSON values not read/],
  ])('%s: line %i named for what it is', (f, line, message) => {
    const issues = read(f);
    expect(issues.filter((i) => message.test(i.message)).map((i) => [i.line, i.severity])).toEqual([[line, 'info']]);
    expect(issues.filter((i) => /line not understood|text after the JSON value was ignored/.test(i.message))).toEqual([]);
  });

  it('a netstat -rn command line is no "route print" line', () => {
    const issues = readOne(path.join(repo, 'test/fixtures/recognise/route-print-zh-netstat.txt'), 'pasted.txt').p.issues;
    expect(issues.map((i) => [i.line, i.message])).toEqual([[1, 'the command line not read: "netstat -rn"']]);
  });
});
