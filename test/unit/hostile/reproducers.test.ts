// Issue 15's audit reproducers against the analysis, each as a bounded outcome: a clear answer within a
// memory cap (a process of its own with a small heap, its peak RSS measured) or a cost that grows no
// faster than the input (a ratio of CPU times measured in one process), never a wall-clock limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { parsePsList } from '../../../parsers/ps/list.ts';
import { demoCopy, repo, withDuplicateKeys, withHostName, withLbRuleBlowup, withRegexId } from '../../fuzz/hostile.ts';
import { Redactor } from '../../../analysis/redact/redact.ts';
import { readFileSync } from 'node:fs';
import { runCli } from '../../helpers/cli.ts';
import { LINEAR_LIMIT, workRatio } from '../../helpers/thread-cpu.ts';

const MiB = 1024 * 1024;
let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'hnsight-hostile-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('LB rules listing thousands of addresses and ports (lb-vfp)', () => {
  it('gives every finding and says which rules were not spelled out, in a 256 MB heap', () => {
    const dir = demoCopy(path.join(tmp, 'lb-blowup'));
    withLbRuleBlowup(dir);
    // Spelled out, each crafted rule is 18 million keys: the check used to die of heap exhaustion.
    const out = execFileSync(process.execPath, ['--max-old-space-size=256', path.join(repo, 'test/helpers/load-child.mjs'), dir, '--checks'], { cwd: repo, encoding: 'utf8', maxBuffer: 16 * MiB });
    const r = JSON.parse(out.trim().split('\n').pop()!) as { findings: { id: string; title: string }[]; peakRssBytes: number };
    expect(r.findings.filter((f) => f.id === 'lb-vfp-undecided').map((f) => f.title)).toEqual([expect.stringMatching(/^\d+ load-balancing rules name more than 64 VIP × port × protocol combinations$/)]);
    expect(r.findings.some((f) => f.id === 'check-failed' || f.id === 'check-over-budget')).toBe(false);
    expect(r.peakRssBytes).toBeLessThan(512 * MiB);
  });

  it('still finds a VIP the crafted rules answer for: nothing HNS expects is reported missing', async () => {
    const dir = demoCopy(path.join(tmp, 'lb-blowup-2'));
    // Small enough to spell out in the old way too, large enough to be capped.
    withLbRuleBlowup(dir, { rules: 1, ips: 40, ports: 40 });
    const f = runChecks(await loadBundle(dir));
    expect(f.filter((x) => x.id === 'lb-rule-missing')).toEqual([]);
    expect(f.find((x) => x.id === 'lb-vfp-undecided')?.objects).toContain('LB_DSR_CRAFTED_0');
  });
});

describe('an endpoint ID that is a catastrophic regular expression (lb-hns)', () => {
  it('is found by its exact text: the stale DIP is reported with the line that names it', async () => {
    const dir = demoCopy(path.join(tmp, 'regex-id'));
    // As a pattern against the load balancer's own ID line, (a+)+$ would take 2^40 steps.
    const { endpointId, lbId } = withRegexId(dir, 40);
    const findings = runChecks(await loadBundle(dir));
    const stale = findings.find((f) => f.id === 'lb-stale-dip');
    expect(stale?.objects).toEqual(expect.arrayContaining([lbId, endpointId]));
    expect(stale!.evidence.map((e) => e.text)).toEqual(expect.arrayContaining([`"ID":  "${lbId}",`, `"${endpointId}"`]));
  });
});

describe('one key repeated in a PowerShell list record (parsers/ps/list.ts)', () => {
  const record = (n: number) => ['IPAddress         : 10.0.0.1', ...Array.from({ length: n }, () => 'PolicyStore       : ActiveStore'), ''];

  it('numbers every duplicate and warns about each, in time linear in the duplicates', () => {
    const r = parsePsList(record(5), 0, 'ip.txt');
    expect(Object.keys(r.value.records[0].fields)).toEqual(['IPAddress', 'PolicyStore', 'PolicyStore_2', 'PolicyStore_3', 'PolicyStore_4', 'PolicyStore_5']);
    expect(r.issues.map((i) => i.line)).toEqual([3, 4, 5, 6]);
    // Sixteen times the duplicates: about sixteen times the work (a quadratic search would be 256), in
    // this thread's CPU time (test/helpers/thread-cpu.ts).
    const small = record(1000);
    const big = record(16000);
    expect(workRatio(() => parsePsList(small, 0, 'ip.txt'), () => parsePsList(big, 0, 'ip.txt'))).toBeLessThan(LINEAR_LIMIT);
  });

  it('reads the audit-sized ip.txt (15,000 duplicates, 480 KB of text) with every duplicate named', async () => {
    const dir = demoCopy(path.join(tmp, 'dup-keys'));
    withDuplicateKeys(dir, 15_000);
    const m = await loadBundle(dir);
    const ip = m.files.find((f) => f.name === 'ip.txt')!;
    expect(ip.issues.filter((i) => /duplicate key "PolicyStore"/.test(i.message))).toHaveLength(15_000);
    expect(m.ip?.netIpAddresses?.length).toBeGreaterThan(0);
  });
});

describe('a host name a million characters long (report --redact)', () => {
  it('writes the redacted report: host names are matched as text, and none longer than 253 is learned', async () => {
    const dir = demoCopy(path.join(tmp, 'long-host'));
    withHostName(dir, `win-k8s-n0${' '.repeat(1_035_958)}`.replace(/ $/, 'x'));
    const out = path.join(tmp, 'long-host.json');
    const r = await runCli('report', dir, '--redact', '--out', out);
    expect(r.stderr).not.toContain('Invalid regular expression');
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8').length).toBeGreaterThan(0);
  });

  it('matches names with pattern characters literally, whole words only, case ignored', () => {
    const red = new Redactor({ hostnames: ['node(a+)+$', 'AKS.win', 'akswin-1', 'x'.repeat(254)] });
    expect(red.redact('on node(a+)+$ and aks.WIN, not aksXwin or akswin-10; akswin-1.')).toBe('on [host-1] and [host-2], not aksXwin or akswin-10; [host-3].');
    expect(red.redact('x'.repeat(254))).toBe('x'.repeat(254));
    expect(red.stats().host).toBe(3);
  });
});

describe('inspect on a node whose core file is over a budget (not read)', () => {
  it('lists the error and exits 1 (errors found), where the same node read whole exits 0', async () => {
    const { cpSync, truncateSync } = await import('node:fs');
    const dir = path.join(tmp, 'unread-core');
    cpSync(path.join(repo, 'assets/demo/overlay-node'), dir, { recursive: true });
    expect((await runCli('inspect', dir)).code).toBe(0);
    // 600 MiB, sparse: past what one string holds, so never read.
    truncateSync(path.join(dir, 'endpoint.txt'), 600 * MiB);
    const r = await runCli('inspect', dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/files: .*1 with errors/);
    // Line 0 is the whole file: named by the file alone (analysis/report/where.ts).
    expect(r.stdout).toContain('endpoint.txt error: not read: it is 600 MiB of text, more than the 512 MiB hnsight can read as text from one file');
    expect((await runCli('inspect', dir, '--json')).code).toBe(1);
  });
});
