// `hnsight reach` on IPv6 (issue #25 points 2 and 3 on dual-stack nodes) through the real entry point,
// on the walk scenarios' dual-stack base (pods 10.244.5.10/fd00:10:244:5::a and 10.244.5.11/
// fd00:10:244:5::b, Service 10.96.5.5 and fd00:96::5 port 80) and the IPv4-only 2022 overlay bundle.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../helpers/cli.ts';
import { ip6ToBig } from '../../../analysis/reach/v6/addr6.ts';
import { withoutIpv6Routes } from '../reach/models-v6.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dual = path.join(repo, 'test/fixtures/walk-scenarios/bases/dualstack-l2bridge');
const v4only = path.join(repo, 'test/fixtures/foreign/ws2022-overlay-2024');

interface Cls {
  dst: [string, string];
  ports: [number, number] | null;
  proto: string;
  verdict: string;
  verdicts?: { dip: string; verdict: string }[];
  example: { dstIp: string; dstPort?: number };
  trace: string;
}

describe('hnsight reach on IPv6', () => {
  it('--from IPv6 --json: the classes tile the IPv6 space, as IPv6 text; each opens its walk with trace', async () => {
    const r = await runCli('reach', dual, '--from', 'fd00:10:244:5::a', '--json', '--no-findings');
    expect([0, 1]).toContain(r.code);
    const j = JSON.parse(r.stdout) as { from: string; classes: Cls[]; limitations: string[] };
    expect(j.from).toBe('fd00:10:244:5::a');
    const icmp = j.classes.filter((c) => c.proto === 'icmp');
    expect(icmp[0]!.dst[0]).toBe('::');
    expect(icmp[icmp.length - 1]!.dst[1]).toBe('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff');
    for (let i = 1; i < icmp.length; i++) expect(ip6ToBig(icmp[i]!.dst[0])).toBe(ip6ToBig(icmp[i - 1]!.dst[1])! + 1n);
    const vip = j.classes.find((c) => c.dst[0] === 'fd00:96::5' && c.proto === 'tcp' && c.ports![0] === 80)!;
    expect(vip.trace).toContain('--to [fd00:96::5]:80 --proto tcp');
    expect(vip.verdicts!.map((v) => v.dip).sort()).toEqual(['fd00:10:244:5::a', 'fd00:10:244:5::b', 'fd00:10:244:6::14']);
    // The trace command of a class walks its example to the class's verdict.
    const pod = j.classes.find((c) => c.dst[0] === 'fd00:10:244:5::b' && c.proto === 'tcp')!;
    const opened = JSON.parse((await runCli(...pod.trace.split(' ').slice(1), '--json', '--no-findings')).stdout);
    expect(opened.verdict).toBe(pod.verdict);
    expect(opened.final).toMatchObject({ srcIp: 'fd00:10:244:5::a', dstIp: 'fd00:10:244:5::b' });
  }, 120_000);

  it('an IPv6 source in any spelling is the same source, written in RFC 5952 text', async () => {
    const a = JSON.parse((await runCli('reach', dual, '--from', 'FD00:10:244:5:0:0:0:A', '--json', '--no-findings')).stdout);
    const b = JSON.parse((await runCli('reach', dual, '--from', 'fd00:10:244:5::a', '--json', '--no-findings')).stdout);
    expect(a.from).toBe('fd00:10:244:5::a');
    expect(a.classes).toEqual(b.classes);
  }, 120_000);

  it('the IPv4 partition of a dual-stack pod names its IPv6 side', async () => {
    const r = await runCli('reach', dual, '--from', '10.244.5.10', '--no-findings');
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(/IPv6 side: reach --from fd00:10:244:5::a/);
  }, 120_000);

  it('--to IPv6: cells from the IPv6 address of every pod and of the host; the default matrix has both families', async () => {
    const j = JSON.parse((await runCli('reach', dual, '--to', '[fd00:96::5]:80', '--to', '10.96.5.5:80', '--json', '--no-findings')).stdout) as { cells: { from: string; to: string; port?: number; proto: string }[] };
    const to6 = j.cells.filter((c) => c.to === 'fd00:96::5');
    expect(to6.map((c) => c.from).sort()).toEqual(['fd00:10:244:5::a', 'fd00:10:244:5::b', 'fd00:10::15']);
    expect(to6.every((c) => c.port === 80 && c.proto === 'tcp')).toBe(true);
    expect(j.cells.filter((c) => c.to === '10.96.5.5').map((c) => c.from).sort()).toEqual(['10.0.0.15', '10.244.5.10', '10.244.5.11']);
    const all = JSON.parse((await runCli('reach', dual, '--json', '--no-findings')).stdout) as { cells: { from: string; to: string }[] };
    const tos = new Set(all.cells.map((c) => c.to));
    for (const ip of ['fd00:10:244:5::b', 'fd00:96::5', 'fd00:10:244:6::14', 'fd00:10::15', '10.96.5.5', '93.184.216.34']) expect(tos, ip).toContain(ip);
  }, 120_000);

  it('the readable tables fit 80 columns and never cut an IPv6 address', async () => {
    for (const args of [['--from', 'fd00:10:244:5::a'], ['--from', 'fd00:10::15'], []]) {
      const r = await runCli('reach', dual, '--no-findings', ...args);
      for (const l of r.stdout.split('\n')) expect([...l].length, l).toBeLessThanOrEqual(80);
      expect(r.stdout).not.toContain('…');
      expect(r.stdout).toMatch(/rules that can never match: \d+/);
    }
    const t = (await runCli('reach', dual, '--no-findings', '--from', 'fd00:10:244:5::a')).stdout;
    expect(t).toContain('fd00:10:244:6::/64');
    expect(t).toMatch(/^tcp {3}fd00:10:244:5::c-fd00:10:244:5:ffff:ffff:ffff:ffff$/m);
  }, 120_000);

  it('without IPv6 routes, an IPv6 cell leaving the node is unknown (insufficient information), not dropped', async () => {
    const b = withoutIpv6Routes();
    const j = JSON.parse((await runCli('reach', b, '--to', '[2606:2800:220:1:248:1893:25c8:1946]:443', '--to', '[fd00:10:244:5::b]:8080', '--json', '--no-findings')).stdout) as { cells: { from: string; to: string; verdict: string; reason: string }[] };
    const out = j.cells.filter((c) => c.to.startsWith('2606:'));
    expect(out.length).toBe(3);
    // The walk says it (analysis/walk/engine/routing.ts), as `trace` does: unknown, never dropped.
    for (const c of out) expect(c, c.from).toMatchObject({ verdict: 'unknown', reason: expect.stringMatching(/lists no IPv6 route.*insufficient information/) });
    // What stays on the node is still decided.
    expect(j.cells.find((c) => c.from === 'fd00:10:244:5::a' && c.to === 'fd00:10:244:5::b')!.verdict).toBe('delivered');
    const text = (await runCli('reach', b, '--to', '[2606:2800:220:1:248:1893:25c8:1946]:443', '--no-findings')).stdout;
    expect(text.replace(/\s+/g, ' ')).toMatch(/insufficient information: the route table \(routes\.txt\) lists no IPv6 route/);
  }, 120_000);

  it('a bundle with no IPv6 pod says so rather than guess', async () => {
    const r = await runCli('reach', v4only, '--to', '[fd00::1]:80', '--no-findings');
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(/insufficient information for the IPv6 destinations: no local pod and not the host has an IPv6 address/);
    const f = JSON.parse((await runCli('reach', v4only, '--from', 'fd00::1', '--json', '--no-findings')).stdout);
    expect(f.limitations.join('\n')).toMatch(/no IPv6 pod address or pod subnet/);
  }, 120_000);
});
