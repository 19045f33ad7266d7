// Faults the generator has no switch for, injected by editing the generated text (and side inputs added).
import { describe, expect, it } from 'vitest';
import { buildWith, kubectlFor } from './helpers.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import type { Finding } from '../../../analysis/findings/types.ts';

const problems = (fs: Finding[]) => fs.filter((f) => f.severity !== 'info');
const ids = (fs: Finding[]) => problems(fs).map((f) => f.id);

/** Removes the first RULE block whose line matches `re` (up to the next blank line). */
function dropRule(text: string, re: RegExp): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(eol);
  const i = lines.findIndex((l) => /^\s*RULE\s*:/.test(l) && re.test(l));
  if (i < 0) throw new Error('rule not found');
  let j = i + 1;
  while (j < lines.length && lines[j].trim() !== '') j++;
  lines.splice(i, j - i + 1);
  return lines.join(eol);
}

describe('load-balancer rules in VFP', () => {
  it('a VIP:port with no LB rule on a pod port (drift)', () => {
    const { model } = buildWith({}, (p, t) => (p === 'vfpOutput.txt' ? dropRule(t, /LB_DSR_.*_10\.96\.0\.10_53_53_17\s*$/) : t));
    const fs = problems(runChecks(model));
    expect(ids(fs)).toEqual(['lb-rule-missing']);
    expect(fs[0].objects[0]).toBe('10.96.0.10:53/UDP');
    expect(fs[0].title).toMatch(/1 of 6 pod ports/);
    expect(fs[0].evidence[0].file).toBe('policy.txt');
    expect(fs[0].evidence[1].text).toMatch(/Policy for port.*no LB rule for 10\.96\.0\.10:53\/UDP/);
    expect(fs[0].trace).toMatchObject({ dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' });
  });
  it('a DIP in VFP that HNS does not have', () => {
    const { node, model } = buildWith({}, (p, t, n) => {
      if (p !== 'vfpOutput.txt') return t;
      const lb = n.loadBalancers.find((l) => l.serviceName.startsWith('default/') && l.serviceName !== 'default/kubernetes' && !l.isNodePort)!;
      return t.split(`{ ${lb.dips[0]} : ${lb.internalPort} }`).join(`{ 10.244.99.99 : ${lb.internalPort} }`);
    });
    void node;
    const fs = problems(runChecks(model));
    expect(ids(fs)).toContain('drift-lb-dips');
    const f = fs.find((x) => x.id === 'drift-lb-dips')!;
    expect(f.severity).toBe('error');
    expect(f.objects).toContain('10.244.99.99');
    expect(f.evidence.map((e) => e.file)).toEqual(['policy.txt', 'vfpOutput.txt']);
  });
  it('a degraded load balancer', () => {
    const { model } = buildWith({}, (p, t) => (p === 'policy.txt' ? t.replace(/("ID":\s+"[^"]+",)/, '$1\r\n        "State":  "Degraded",') : t));
    const fs = problems(runChecks(model));
    expect(ids(fs)).toEqual(['lb-degraded']);
    expect(fs[0].evidence[0].text).toMatch(/"State":\s+"Degraded"/);
  });
});

describe('OutBoundNAT exceptions and their drift', () => {
  it('the cluster CIDR missing from the ExceptionList (HNS and VFP differ too)', () => {
    const { model } = buildWith({}, (p, t) => (p === 'endpoint.txt' ? t.split('"10.244.0.0/16"').join('"10.245.0.0/16"') : t));
    const fs = problems(runChecks(model));
    const miss = fs.find((f) => f.id === 'outboundnat-exception-missing')!;
    expect(miss.severity).toBe('error');
    expect(miss.title).toMatch(/pod subnet 10\.244\.\d+\.0\/24/);
    const drift = fs.filter((f) => f.id === 'drift-outboundnat');
    expect(drift.map((f) => f.severity).sort()).toEqual(['error', 'warning']);
    const hnsOnly = drift.find((f) => f.severity === 'error')!;
    expect(hnsOnly.evidence[0]).toMatchObject({ file: 'endpoint.txt' });
    expect(hnsOnly.evidence[0].text).toContain('10.245.0.0/16');
    expect(hnsOnly.evidence[1].file).toBe('vfpOutput.txt');
  });
});

describe('DNS', () => {
  it('pods whose NIC DNS is not the kube-dns VIP', () => {
    const { model } = buildWith({}, (p, t) => (p === 'ip.txt' ? t.replace(/(DNS Servers[ .]*: )10\.96\.0\.10/g, '$18.8.8.8') : t), (n) => ({ 'k8s.json': kubectlFor(n) }));
    const fs = problems(runChecks(model));
    expect(ids(fs)).toEqual(['pod-dns-not-vip']);
    expect(fs[0].title).toMatch(/8\.8\.8\.8 instead of the DNS VIP 10\.96\.0\.10/);
    expect(fs[0].explanation).toMatch(/default\/web-\d/);
    expect(fs[0].evidence[0]).toMatchObject({ file: 'ip.txt' });
    expect(fs[0].evidence[0].text).toMatch(/DNS Servers.*8\.8\.8\.8/);
  });
  it('pods whose spec asks for other DNS servers (dnsPolicy Default or None) are not flagged', () => {
    const toDefault = (k: string) => JSON.stringify({ ...JSON.parse(k), items: JSON.parse(k).items.map((it: { kind: string; spec: object }) => (it.kind === 'Pod' ? { ...it, spec: { ...it.spec, dnsPolicy: 'Default' } } : it)) });
    const wrongDns = (p: string, t: string) => (p === 'ip.txt' ? t.replace(/(DNS Servers[ .]*: )10\.96\.0\.10/g, '$18.8.8.8') : t);
    const { model } = buildWith({}, wrongDns, (n) => ({ 'k8s.json': toDefault(kubectlFor(n)) }));
    expect(ids(runChecks(model))).not.toContain('pod-dns-not-vip');
    // Without a snapshot the finding stays, and says what it cannot tell.
    const bare = buildWith({}, wrongDns).model;
    const f = problems(runChecks(bare)).find((x) => x.id === 'pod-dns-not-vip');
    expect(f?.explanation).toMatch(/dnsPolicy Default or None .* no kubectl snapshot/);
  });
  it('the DNS VIP with no load balancer', () => {
    const { model } = buildWith({}, (p, t) => (p === 'policy.txt' ? t.split('"10.96.0.10"').join('"10.96.0.11"') : t));
    const fs = problems(runChecks(model));
    const f = fs.find((x) => x.id === 'dns-vip-no-lb')!;
    expect(f.severity).toBe('error');
    expect(f.objects).toEqual(['10.96.0.10:53/UDP', '10.96.0.10:53/TCP']);
    expect(f.trace).toMatchObject({ dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' });
  });
});

describe('node state', () => {
  it('APIPA on the host vNIC', () => {
    const { model, node } = buildWith({}, (p, t, n) => (p === 'ip.txt' ? t.replace(new RegExp(`(IPv4 Address[ .]*: )${n.nodeIp.replace(/\./g, '\\.')}`), '$1169.254.12.7') : t));
    const fs = problems(runChecks(model));
    expect(ids(fs)).toContain('apipa-management-ip');
    const f = fs.find((x) => x.id === 'apipa-management-ip')!;
    expect(f.evidence[0].text).toContain('169.254.12.7');
    void node;
  });
  it('ephemeral port exhaustion from reservedports.txt, quiet when ranges are left', () => {
    const bad = buildWith({}, undefined, () => ({ 'reservedports.txt': 'Rough estimation of the ephemeral port availability: up to 0 allocations of 64 contiguous TCP ports may be possible\r\nERROR: Running out of ephemeral ports\r\n' }));
    const fs = problems(runChecks(bad.model));
    expect(ids(fs)).toEqual(['ephemeral-port-exhaustion']);
    expect(fs[0].evidence[0]).toMatchObject({ file: 'reservedports.txt', line: 1 });
    const good = buildWith({}, undefined, () => ({ 'reservedports.txt': 'Rough estimation of the ephemeral port availability: up to 247 allocations of 64 contiguous TCP ports may be possible\r\nSuccessfully reserved 10 ranges of 64 ports\r\n' }));
    // (checks-not-applicable: the Calico-only check does not run on this Flannel node, said as info)
    expect(runChecks(good.model).filter((f) => f.id !== 'checks-not-applicable')).toEqual([]);
  });
});

describe('kubectl snapshot', () => {
  it('names pods and services, and stays quiet when intent matches', () => {
    const { model } = buildWith({ faults: ['wrong-gateway'] }, undefined, (n) => ({ 'k8s.json': kubectlFor(n) }));
    const fs = problems(runChecks(model));
    expect(ids(fs)).toEqual(['pod-gateway-wrong']);
    expect(fs[0].title).toMatch(/\(default\/web-\d\)/);
  });
  it('a Service with ready backends and no HNS load balancer', () => {
    const { model } = buildWith({}, undefined, (n) => ({ 'k8s.json': kubectlFor(n, { extraService: true }) }));
    const fs = problems(runChecks(model));
    expect(ids(fs)).toEqual(['k8s-service-no-lb']);
    expect(fs[0].objects).toEqual(['10.100.1.2:8443/TCP', 'default/orders']);
    expect(fs[0].evidence[0].file).toBe('k8s.json');
  });
  it('a stale DIP VFP still load-balances to fails connections: an error that says so', () => {
    const { model } = buildWith({ faults: ['stale-lb-dip'] });
    const f = problems(runChecks(model)).find((x) => x.id === 'lb-stale-dip')!;
    expect(f.severity).toBe('error');
    expect(f.explanation).toMatch(/VFP's rule on port \S+ still sends to 10\.244\.\d+\.253, which no endpoint has: .* fails intermittently/);
    expect(f.evidence.at(-1)).toMatchObject({ file: 'vfpOutput.txt', text: expect.stringContaining('.253') });
  });
  it('a stale reference VFP no longer holds breaks nothing: a warning that does not claim failures', () => {
    // VFP holds only the valid backends (the stale one is in HNS alone).
    const { model } = buildWith({ faults: ['stale-lb-dip'] }, (p, t) => (p === 'vfpOutput.txt' ? t.replace(/\r?\n\s*\{ 10\.244\.\d+\.253 : \d+ \}/g, '').replace(/Count of DIP Ranges: 3/g, 'Count of DIP Ranges: 2') : t));
    const f = problems(runChecks(model)).find((x) => x.id === 'lb-stale-dip')!;
    expect(f.severity).toBe('warning');
    expect(f.explanation).not.toMatch(/intermittent|time out/);
    expect(f.explanation).toMatch(/sends only to [\d., ]+, all endpoints of this bundle: no connection is black-holed now/);
  });
  it('a pod endpoint without its vNIC is said to run only when Kubernetes says so', () => {
    const bare = problems(runChecks(buildWith({ faults: ['endpoint-without-vnic'] }).model)).find((x) => x.id === 'endpoint-without-vnic')!;
    expect(bare.explanation).not.toMatch(/Running/);
    expect(bare.explanation).toContain('a pod started in this sandbox has no working network');
    const named = problems(runChecks(buildWith({ faults: ['endpoint-without-vnic'] }, undefined, (n) => ({ 'k8s.json': kubectlFor(n) })).model)).find((x) => x.id === 'endpoint-without-vnic')!;
    expect(named.explanation).toMatch(/Kubernetes has pod default\/web-\d Running with this address, without a working network/);
  });
  it('stale DIPs are named by service', () => {
    const { model } = buildWith({ faults: ['stale-lb-dip'] }, undefined, (n) => ({ 'k8s.json': kubectlFor(n) }));
    const f = problems(runChecks(model)).find((x) => x.id === 'lb-stale-dip')!;
    expect(f.title).toMatch(/\(default\/[\w-]+\)/);
  });
});

describe('robustness', () => {
  it('checks never throw on odd models', () => {
    const { model } = buildWith({});
    const odd = { ...model, endpoints: [{ ...model.endpoints![0], ip: 'garbage', outboundNat: [{ exceptions: ['x/99', ''] }] }], networks: [{ ...model.networks![1], subnets: [{ prefix: 'nonsense' }] }], loadBalancers: [{ ...model.loadBalancers![0], vips: ['1.2.3'], ports: [] }] };
    expect(() => runChecks(odd)).not.toThrow();
    const empty = { ...model, networks: null, endpoints: null, loadBalancers: null, namespaces: null, ip: null, routes: null, ports: null, vfp: null, joins: { endpoints: [], loadBalancers: [], unmatched: [] } };
    const fs = runChecks(empty);
    expect(fs.every((f) => f.severity === 'info')).toBe(true);
    // Nothing names the network plugin: the checks that rely on its facts say they did not run.
    const skipped = fs.find((f) => f.id === 'checks-not-applicable');
    expect(skipped?.objects).toEqual(expect.arrayContaining(['outboundnat', 'pod-gateway', 'remote-subnets']));
    expect(skipped?.title).toMatch(/network plugin is not known/);
  });
});
