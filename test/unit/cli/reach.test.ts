// The `hnsight reach` contract (issue #25 point 2) through the real entry point, on the overlay demo
// (pods 10.244.18.3…8 on this node, kube-dns 10.96.0.10) and the hand-written 2022 overlay bundle.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../helpers/cli.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const demo = path.join(repo, 'assets/demo/overlay-node');
const foreign = path.join(repo, 'test/fixtures/foreign/ws2022-overlay-2024');
const VERDICTS = ['delivered', 'forwarded', 'delivered or forwarded', 'dropped', 'unknown', 'ambiguous', 'insufficient information'];

describe('hnsight reach', () => {
  it('--from --json: classes with the documented fields, an example each, that trace walks to the same verdict', async () => {
    const r = await runCli('reach', demo, '--from', '10.244.18.3', '--json');
    expect([0, 1]).toContain(r.code);
    const j = JSON.parse(r.stdout);
    expect(j.from).toBe('10.244.18.3');
    expect(j.classes.length).toBeGreaterThan(3);
    for (const c of j.classes) {
      expect(c.dst).toHaveLength(2);
      expect(['tcp', 'udp', 'icmp']).toContain(c.proto);
      expect(c.proto === 'icmp' ? c.ports === null : c.ports.length === 2).toBe(true);
      expect(VERDICTS).toContain(c.verdict);
      expect(c).toHaveProperty('decidingRule');
      expect(c.example.proto).toBe(c.proto);
      expect(c).not.toHaveProperty('key');
    }
    // kube-dns over UDP: a class of its own on port 53, a backend list when its backends differ.
    const dns = j.classes.find((c: { dst: string[]; proto: string; ports: number[] }) => c.dst[0] === '10.96.0.10' && c.proto === 'udp' && c.ports[0] <= 53 && c.ports[1] >= 53);
    expect(dns.ports).toEqual([53, 53]);
    // Each class names the command that opens the walk of its example.
    const opened = await runCli(...dns.trace.split(' ').slice(1), '--json');
    expect(JSON.parse(opened.stdout).final).toMatchObject({ srcIp: '10.244.18.3', proto: 'udp' });
    expect(dns.trace).toContain(`--to ${dns.example.dstIp}:${dns.example.dstPort} --proto udp`);
    // The examples walk with trace to the class's verdict (or one of its backends').
    for (const c of j.classes.filter((x: { proto: string }) => x.proto === 'udp').slice(0, 6)) {
      const t = JSON.parse((await runCli('trace', demo, '--from', '10.244.18.3', '--to', `${c.example.dstIp}:${c.example.dstPort}`, '--proto', 'udp', '--no-findings', '--json')).stdout);
      const allowed = c.verdicts ? c.verdicts.map((v: { verdict: string }) => v.verdict) : [c.verdict];
      // reach's words for what trace flags: a tie between rules, an effect the bundle does not model.
      const traced = t.hops.some((h: { ambiguous: string | null; overridden: boolean }) => h.ambiguous && !h.overridden) ? 'ambiguous' : t.verdict === 'unknown' && t.dependsOnUnmodelled ? 'insufficient information' : t.verdict;
      expect(allowed, `${c.example.dstIp}:${c.example.dstPort}`).toContain(traced);
    }
    expect(j.shadowed).toHaveProperty('shadowed');
  }, 120_000);

  it('--to: the cells of every local pod and the host against the named destinations', async () => {
    const r = await runCli('reach', foreign, '--to', '10.96.0.10:53/udp', '--to', '10.244.2.7:8080', '--json');
    const j = JSON.parse(r.stdout);
    const froms = new Set(j.cells.map((c: { from: string }) => c.from));
    expect(froms.size).toBeGreaterThanOrEqual(4);
    for (const c of j.cells) {
      expect(['10.96.0.10', '10.244.2.7']).toContain(c.to);
      expect(c.proto).toBe(c.to === '10.96.0.10' ? 'udp' : 'tcp');
      for (const k of ['from', 'to', 'proto', 'verdict', 'decidingRule', 'reply', 'findings']) expect(c).toHaveProperty(k);
    }
    // kube-dns has two backends on other nodes: the cell lists both.
    const dns = j.cells.find((c: { to: string }) => c.to === '10.96.0.10');
    expect(dns.verdicts.map((v: { dip: string }) => v.dip).sort()).toEqual(['10.244.0.2', '10.244.0.3']);
  }, 120_000);

  it('the default matrix names pods, Services, remote pod subnets, the node and the outside; --verdict filters', async () => {
    const all = JSON.parse((await runCli('reach', foreign, '--json', '--no-findings')).stdout);
    const tos = new Set(all.cells.map((c: { to: string }) => c.to));
    for (const ip of ['10.244.2.7', '10.96.0.10', '10.244.0.2', '10.244.1.14', '10.0.1.5', '93.184.216.34']) expect(tos, ip).toContain(ip);
    const dropped = await runCli('reach', foreign, '--json', '--no-findings', '--verdict', 'dropped');
    const d = JSON.parse(dropped.stdout);
    expect(d.cells.length).toBe(all.cells.filter((c: { verdict: string }) => c.verdict === 'dropped').length);
    expect(d.cells.every((c: { verdict: string }) => c.verdict === 'dropped')).toBe(true);
    expect(dropped.code).toBe(d.cells.length ? 1 : 0);
  }, 120_000);

  it('the readable table fits 80 columns and ends with the rules that can never match', async () => {
    for (const args of [['--from', '10.244.2.4'], []]) {
      const r = await runCli('reach', foreign, '--no-findings', ...args);
      for (const l of r.stdout.split('\n')) expect([...l].length, l).toBeLessThanOrEqual(80);
      expect(r.stdout).toMatch(/rules that can never match: \d+/);
    }
  }, 120_000);

  it('bad usage is exit 2 with the reason', async () => {
    expect((await runCli('reach', foreign, '--from', '10.0.0.1:80')).stderr).toMatch(/address only/);
    expect((await runCli('reach', foreign, '--verdict', 'maybe')).code).toBe(2);
    expect((await runCli('reach', foreign, '--to', '10.0.0.1:80/icmp')).stderr).toMatch(/ICMP has no port/);
    expect((await runCli('reach')).code).toBe(2);
  });
});
