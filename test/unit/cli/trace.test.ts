// The `hnsight trace` contract (DESIGN.md §3) through the real entry point, on the overlay demo.
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../../helpers/cli.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const demo = path.join(repo, 'assets/demo/overlay-node');

const run = runCli;

// The overlay demo: pods 10.244.18.3…8 on this node, 10.244.19.x / 10.244.20.x on two others, kube-dns 10.96.0.10.
describe('hnsight trace', () => {
  it('--json gives the documented document for pod → service', async () => {
    const r = await run('trace', demo, '--from', '10.244.18.3', '--to', '10.96.0.10:53', '--proto', 'udp', '--json');
    expect(r.code).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(['delivered', 'forwarded', 'dropped', 'unknown']).toContain(t.verdict);
    expect(typeof t.reason).toBe('string');
    for (const h of t.hops) {
      for (const k of ['at', 'port', 'layer', 'group', 'rule', 'ruleType', 'action', 'rewrite', 'evidence']) expect(h, k).toHaveProperty(k);
    }
    const dnat = t.hops.find((h: { action: string }) => h.action === 'DNAT');
    expect(dnat.rewrite.dstIp).toMatch(/^10\.244\.19\./);
    expect(dnat.evidence.file).toBe('vfpOutput.txt');
    expect(t.final).toMatchObject({ srcIp: '10.244.18.3', proto: 'udp', dstPort: 53 });
    expect(t.egress.encapDst).toMatch(/^10\.240\.0\./);
  });

  it('readable output ends with the verdict and the deciding rule', async () => {
    const r = await run('trace', demo, '--from', '10.244.18.3', '--to', '10.244.20.8:80');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/verdict: FORWARDED/);
    expect(r.stdout).toMatch(/decided by: REMOTESUBNETROUTE_\S+ \(VNET_ENCAP_LAYER\) at vfpOutput\.txt:\d+/);
  });

  it('--dip picks the backend', async () => {
    const a = JSON.parse((await run('trace', demo, '--from', '10.244.18.3', '--to', '10.96.0.10:53', '--proto', 'udp', '--dip', '10.244.19.3', '--json')).stdout);
    const b = JSON.parse((await run('trace', demo, '--from', '10.244.18.3', '--to', '10.96.0.10:53', '--proto', 'udp', '--dip', '10.244.19.4', '--json')).stdout);
    expect(a.final.dstIp).toBe('10.244.19.3');
    expect(b.final.dstIp).toBe('10.244.19.4');
  });

  it('--reply walks the reply too: text under its own heading, JSON as a nested document with the flags', async () => {
    const txt = await run('trace', demo, '--from', '10.244.18.3', '--to', '10.96.0.10:53', '--proto', 'udp', '--dip', '10.244.19.3', '--reply');
    expect(txt.code).toBe(0);
    expect(txt.stdout).toMatch(/\nreply UDP 10\.244\.19\.3:53 → 10\.244\.18\.3:49152\n/);
    expect(txt.stdout).toMatch(/verdict: DELIVERED.*the answer 10\.96\.0\.10:53 → 10\.244\.18\.3:49152 the source expects/);
    const t = JSON.parse((await run('trace', demo, '--from', '10.244.18.3', '--to', '10.96.0.10:53', '--proto', 'udp', '--dip', '10.244.19.3', '--reply', '--json')).stdout);
    for (const k of ['dependsOnUnmodelled', 'inferred', 'caveats']) expect(t, k).toHaveProperty(k);
    expect(t.reply.kind).toBe('reply');
    expect(t.reply.final).toMatchObject({ srcIp: '10.96.0.10', srcPort: 53, dstIp: '10.244.18.3' });
    expect(t.reply.hops.some((h: { flow: boolean; rule: string }) => h.flow && /^LB_DSR_/.test(h.rule))).toBe(true);
  });

  it('a step the bundle does not state is flagged beside the verdict; an unmodelled rule too', async () => {
    // OutboundNAT's address comes from the dynnat rule's name (the demo has no NAT ranges): inferred
    const r = await run('trace', demo, '--from', '10.244.18.3', '--to', '93.184.216.34:443');
    expect(r.stdout).toMatch(/SNAT: src → 10\.240\.0\.\d+ {2}\(inferred\)/);
    expect(r.stdout).toMatch(/verdict: FORWARDED \(some steps are inferred\)/);
  });

  it('takes IPv6 addresses ([ADDRESS]:PORT) and refuses mixed families', async () => {
    // the IPv4-only demo has no IPv6 route: the walk says so (and exits 1, dropped)
    const r = await run('trace', demo, '--from', 'fd00::5', '--to', '[fd00::6]:80', '--json');
    const t = JSON.parse(r.stdout);
    expect(t.final).toMatchObject({ srcIp: 'fd00::5', dstIp: 'fd00::6', dstPort: 80 });
    expect(t.reason).toMatch(/no IPv6 route to fd00::6/);
    expect(r.code).toBe(1);
    const m = await run('trace', demo, '--from', 'fd00::5', '--to', '10.0.0.1');
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/same IP family/);
  });

  it('exits 1 when the packet is dropped', async () => {
    // a ClusterIP port the service does not expose: no LB rule translates it
    const r = await run('trace', demo, '--from', '10.244.18.3', '--to', '10.96.0.10:54', '--proto', 'udp');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/verdict: DROPPED/);
  });

  it.each([
    [['trace', demo, '--to', '10.0.0.1'], /needs --from/],
    [['trace', demo, '--from', 'pod-a', '--to', '10.0.0.1'], /--from must be an IPv4 or IPv6 address/],
    [['trace', demo, '--from', '10.0.0.1', '--to', '10.0.0.2:99999'], /out of range/],
    [['trace', demo, '--from', '10.0.0.1', '--to', '10.0.0.2', '--proto', 'sctp'], /--proto must be/],
    [['trace', path.join(repo, 'nope'), '--from', '10.0.0.1', '--to', '10.0.0.2'], /no such file or folder/],
  ])('bad usage or input exits 2: %j', async (args, re) => {
    const r = await run(...(args as string[]));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(re);
  });
});

// The l2bridge demo has two faults (tools/gen/demo.ts): every pod's OutBoundNAT ExceptionList holds
// 10.244.0.0/0, and the endpoint of 10.244.32.9 has no vNIC.
const faulty = path.join(repo, 'assets/demo/l2bridge-node');

describe('hnsight trace meets the findings', () => {
  it('prints why each rule matched, the finding under the hop it concerns and beside the verdict', async () => {
    const r = await run('trace', faulty, '--from', '10.244.32.3', '--to', '93.184.216.34:443');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const hop = lines.findIndex((l) => /^\s*\d+\. .*EXCEPTIONS_OUTBOUNDNAT_\S+ \[allow\]/.test(l));
    expect(hop).toBeGreaterThan(0);
    // The hop's block: its action, why the rule matched, the finding on it — before the next hop.
    const next = lines.findIndex((l, i) => i > hop && /^\s*\d+\. /.test(l));
    const block = lines.slice(hop, next).join('\n');
    expect(block).toContain('matched: destination IP 93.184.216.34 ∈ 0.0.0.0-255.255.255.255');
    expect(block).toMatch(/finding \(error\): OutBoundNAT ExceptionList entry 10\.244\.0\.0\/0 on 8 pod endpoints — EXCEPTIONS_OUTBOUNDNAT_\S+ matched this packet because destination IP 93\.184\.216\.34 ∈ 0\.0\.0\.0-255\.255\.255\.255: that range is 10\.244\.0\.0\/0/);
    expect(r.stdout).toMatch(new RegExp(`verdict: FORWARDED( \\([^)]*\\))?, but OutBoundNAT ExceptionList entry 10\\.244\\.0\\.0/0 on 8 pod endpoints \\(hop ${lines[hop].trim().split('.')[0]}\\) — `));
  });

  it('--json has the findings with their hop, the verdict caveat and each hop’s matched conditions', async () => {
    const t = JSON.parse((await run('trace', faulty, '--from', '10.244.32.3', '--to', '93.184.216.34:443', '--json')).stdout);
    expect(t.findings).toEqual([expect.objectContaining({ key: 'outboundnat-exception-typo#1', id: 'outboundnat-exception-typo', severity: 'error', hop: expect.any(Number), why: expect.stringContaining('10.244.0.0/0') })]);
    expect(t.verdictCaveat).toEqual({ severity: 'error', text: expect.stringMatching(/^OutBoundNAT ExceptionList entry 10\.244\.0\.0\/0/) });
    expect(t.hops[t.findings[0].hop].matchedBecause).toEqual([{ field: 'destination IP', value: '93.184.216.34', condition: '0.0.0.0-255.255.255.255', result: 'match' }]);
    // Hops that are no rule match say so with null; the source is one.
    expect(t.hops[0].matchedBecause).toBeNull();
    // A walk to the pod without a vNIC is dropped: nothing receives it; the finding says why.
    const d = JSON.parse((await run('trace', faulty, '--from', '10.244.32.3', '--to', '10.244.32.9:80', '--json')).stdout);
    expect(d.verdict).toBe('dropped');
    expect(d.findings.map((f: { id: string }) => f.id)).toContain('endpoint-without-vnic');
    expect(d.findings.find((f: { id: string }) => f.id === 'endpoint-without-vnic').hop).toBe(d.hops.length - 1);
    expect(d.verdictCaveat.severity).toBe('error');
  });

  it('--no-findings skips the checks; a healthy node carries none', async () => {
    const t = JSON.parse((await run('trace', faulty, '--from', '10.244.32.3', '--to', '93.184.216.34:443', '--json', '--no-findings')).stdout);
    expect(t.findings).toEqual([]);
    expect(t.verdictCaveat).toBeNull();
    const h = JSON.parse((await run('trace', demo, '--from', '10.244.18.3', '--to', '93.184.216.34:443', '--json')).stdout);
    expect(h.findings).toEqual([]);
    expect(h.verdictCaveat).toBeNull();
  });
});

describe('the real command (bin/hnsight.mjs as a process)', () => {
  it('exits 1 when the packet is dropped', async () => {
    const r = await spawnCli('trace', demo, '--from', '10.244.18.3', '--to', '10.96.0.10:54', '--proto', 'udp');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/dropped/i);
  });
});
