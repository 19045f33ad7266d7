// Log lines in the seeds' formats → events → per-sandbox CNI ADD timelines and known errors.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { parseLogFile, readLogLine } from '../../../parsers/logs/index.ts';
import { buildTimelines } from '../../../analysis/timeline/index.ts';
import { buildWith } from '../checks/helpers.ts';
import { runChecks } from '../../../analysis/checks/index.ts';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');
const read = (p: string) => readFileSync(path.join(dir, p), 'utf8');
const SANDBOX = '5b2919415cea791dd4ddff000f46e4ada5386e0c3147ae17ac5eebb82e008418';

describe('timestamps', () => {
  it('klog, klog without date, logrus, azure, calico: time with its precision and resolution', () => {
    expect(readLogLine('I0314 07:12:55.002117    3964 server.go:487] "Kubelet version"')).toMatchObject({ level: 'info', pid: 3964, time: { precision: 'monthday', resolution: 0.001 } });
    expect(readLogLine('10:15:26.814722    3620 server.go:425] Received CmdAdd request')!.time).toMatchObject({ precision: 'time', tod: 36926814.722 });
    expect(readLogLine('time="2023-04-06T10:15:26.814722Z" level=debug msg="begin cni setup"')).toMatchObject({ level: 'debug', time: { precision: 'full' } });
    expect(readLogLine('2025/03/14 07:14:01 [3528] [cni-net] Processing ADD command')).toMatchObject({ pid: 3528, message: '[cni-net] Processing ADD command', time: { resolution: 1000 } });
    expect(readLogLine('2023-04-06 10:15:26.814 [INFO][1234] plugin.go 123: Calico CNI ADD')).toMatchObject({ level: 'info', pid: 1234, time: { resolution: 1 } });
    expect(readLogLine('level=debug msg="begin cni setup"')!.time).toBeUndefined();
  });
  it('tells zap (ts) from logrus JSON (time)', () => {
    expect(readLogLine('{"level":"info","ts":"2023-08-15T20:51:20.379Z","msg":"Processing ADD command"}')!.format).toBe('zap');
    expect(readLogLine('{"level":"info","msg":"Parsed network config","time":"2022-03-14T07:14:01-07:00"}')!.format).toBe('logrus');
  });
});

describe('the deep dive: where 5 s of CmdAdd went', () => {
  const log = parseLogFile(read('logs/antrea-agent.log'), 'antrea-agent.log').value;
  it('reads the agent log', () => {
    expect(log.component).toBe('antrea');
    expect(log.events[0]).toMatchObject({ line: 1, ids: [SANDBOX], pod: { namespace: 'default', name: 'db-6cqff' } });
  });
  it('one timeline, ~4.96 s, longest gap 2.5 s between Configuring IP address and Adding OVS port', () => {
    const [t] = buildTimelines([log]);
    expect(t.sandboxId).toBe(SANDBOX);
    expect(t.pod).toEqual({ namespace: 'default', name: 'db-6cqff' });
    expect(t.outcome).toBe('succeeded');
    expect(t.add).toBeCloseTo(4958.145, 2);
    expect(t.longestGap!.ms).toBeCloseTo(2494.967, 2);
    // The agent's own named steps, quoting its lines.
    expect(t.longestGap).toMatchObject({ from: 'antrea: configuring the IP address', to: 'antrea: adding the OVS port', plugin: true });
    expect(t.steps[t.longestGap!.fromIndex].message).toMatch(/^Configuring IP address for container/);
    expect(t.steps[t.longestGap!.toIndex].message).toMatch(/^Adding OVS port db-6cqff-568022/);
    // Lines that do not name the sandbox (DNS, stale flows, round number, ARP) are not steps.
    expect(t.steps.map((s) => s.line)).toEqual([1, 2, 4, 5, 10, 11]);
  });
  it('is reported as a slow ADD with both lines as evidence', () => {
    const { model } = buildWith({}, undefined, () => ({ 'antrea-agent.log': read('logs/antrea-agent.log') }));
    const f = runChecks(model).find((x) => x.id === 'cni-add-slow')!;
    expect(f.severity).toBe('warning');
    expect(f.title).toBe('CNI ADD for default/db-6cqff took 4.958 s; 2.495 s between "antrea: configuring the IP address" and "antrea: adding the OVS port"');
    expect(f.evidence.map((e) => `${e.file}:${e.line}`)).toEqual(['antrea-agent.log:4', 'antrea-agent.log:5']);
  });
});

describe('containerd (seed) and known errors', () => {
  it('containerd lines without time make an ordered timeline; the failure is named', () => {
    const log = parseLogFile(read('logs/containerd.log'), 'containerd.log').value;
    expect(log.component).toBe('containerd');
    const ts = buildTimelines([log]);
    const t = ts.find((x) => x.sandboxId.startsWith('abd08d33'))!;
    expect(t.pod).toEqual({ namespace: 'default', name: 'mytest' });
    expect(t.steps.map((s) => s.label)).toEqual(expect.arrayContaining(['containerd: begin cni setup', 'containerd: network setup failed']));
    expect(t.outcome).toBe('failed');
    expect(t.total).toBeUndefined();
  });
  it('each seed error message becomes an error finding with cause and fix', () => {
    const { model } = buildWith({}, undefined, () => ({ 'kubelet.log': read('logs/kubelet.log'), 'containerd.log': read('logs/containerd.log'), 'containerd-reload.log': read('logs/containerd-reload.log') }));
    const fs = runChecks(model).filter((f) => f.area === 'logs');
    const ids = [...new Set(fs.map((f) => f.id))].sort();
    // Both failed sandboxes of default/mytest are one finding: named after the first error, the other listed.
    expect(ids).toEqual(['log-cni-add-failed', 'log-cni-no-plugins-key', 'log-cni-not-initialized', 'log-cni-plugin-not-found']);
    const mytest = fs.find((f) => f.objects[0] === 'default/mytest')!;
    expect(mytest.title).toMatch(/default\/mytest, 2 attempts$/);
    expect(mytest.explanation).toMatch(/The CNI result had no IP for the pod interface/);
    expect(fs.every((f) => f.severity === 'error' && f.evidence.length > 0 && f.fix.length > 20)).toBe(true);
    expect(fs.find((f) => f.id === 'log-cni-no-plugins-key')!.evidence[0]).toMatchObject({ file: 'containerd-reload.log', line: 1 });
  });
  it('the AKS foreign logs: Azure CNI ADDs joined to kubelet sandbox lines', () => {
    const az = parseLogFile(read('foreign/aks-win-zip-2025/azure-vnet.log'), 'azure-vnet.log').value;
    const kl = parseLogFile(read('foreign/aks-win-zip-2025/kubelet.log'), 'kubelet.log').value;
    expect(az.component).toBe('azure-cni');
    const ts = buildTimelines([az, kl]);
    const t = ts.find((x) => x.pod?.name === 'sample-win-app-7c9f6b8d54-4kq9s')!;
    expect(t.steps.map((s) => s.component)).toEqual(['azure-cni', 'azure-cni', 'azure-cni', 'azure-cni', 'kubelet']);
    expect(t.add).toBe(2000);
    expect(t.outcome).toBe('succeeded');
  });
  it('never throws on junk', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      buildTimelines([parseLogFile(s + '\n' + read('logs/antrea-agent.log').slice(0, s.length * 7), 'x.log').value]);
    }), { numRuns: 200 });
  });
});
