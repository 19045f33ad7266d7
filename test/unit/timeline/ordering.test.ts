// A CNI timeline a person can trust: every line in time, level and message (zap JSON included),
// steps in time order with offsets from the first, gaps and durations never negative, slowest first.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseLogFile } from '../../../parsers/logs/index.ts';
import { buildTimelines } from '../../../analysis/timeline/index.ts';

const A = 'a1'.repeat(32);
const B = 'b2'.repeat(32);
const zap = (ts: string, msg: string, extra: Record<string, unknown> = {}) => JSON.stringify({ level: 'info', ts, msg, pid: 4242, component: 'cni', ...extra });

describe('azure-vnet.log mixing zap JSON (ms) and legacy text (whole seconds)', () => {
  const log = [
    zap('2024-05-14T08:00:03.380Z', '[cni-net] Processing ADD command', { containerId: A, args: `K8S_POD_NAMESPACE=shop;K8S_POD_NAME=web-1;K8S_POD_INFRA_CONTAINER_ID=${A}` }),
    // Printed after the zap line but stamped 08:00:03 (its second): it must not move before it.
    `2024/05/14 08:00:03 [4242] [net] Creating HNS endpoint ${A.slice(0, 8)}-eth0 in network azure`,
    zap('2024-05-14T08:00:03.902Z', 'Creating hcn endpoint', { name: `${A.slice(0, 8)}-eth0` }),
    zap('2024-05-14T08:00:09.217Z', 'Successfully created hcn endpoint with response'),
    zap('2024-05-14T08:00:09.230Z', 'ADD command completed for', { pod: 'web-1', IPs: ['10.244.1.7/24'], error: null }),
  ].join('\n');
  const [t] = buildTimelines([parseLogFile(log, 'azure-vnet.log').value]);

  it('reads each line into time, level and message (no raw JSON)', () => {
    expect(t.steps.map((s) => s.message)).toEqual([
      '[cni-net] Processing ADD command',
      `[net] Creating HNS endpoint ${A.slice(0, 8)}-eth0 in network azure`,
      'Creating hcn endpoint',
      'Successfully created hcn endpoint with response',
      'ADD command completed for',
    ]);
    expect(t.steps.map((s) => s.level)).toEqual(['info', undefined, 'info', 'info', 'info']);
    expect(t.steps.map((s) => s.resolutionMs)).toEqual([1, 1000, 1, 1, 1]);
  });
  it('keeps the file order, offsets from the first step, gaps never negative', () => {
    expect(t.steps.map((s) => s.line)).toEqual([1, 2, 3, 4, 5]);
    expect(t.steps.map((s) => s.at)).toEqual([0, 0, 522, 5837, 5850]);
    expect(t.steps.map((s) => s.gap)).toEqual([undefined, 0, 522, 5315, 13]);
    expect(t.add).toBe(5850);
    expect(t.outcome).toBe('succeeded');
  });
  it('names the largest gap between two named steps of the plugin', () => {
    expect(t.longestGap).toMatchObject({ ms: 5315, from: 'azure-vnet: creating the HCN endpoint', to: 'azure-vnet: HCN endpoint created', plugin: true });
    expect(t.longestGap!.approximate).toBeUndefined();
  });
});

describe('files merged by time, slowest ADD first', () => {
  const ctrd = [
    `time="2024-05-14T08:00:00.1000000Z" level=debug msg="begin cni setup" podsandboxid=${B}`,
    `time="2024-05-14T08:00:01.0000000Z" level=debug msg="begin cni setup" podsandboxid=${A}`,
    `time="2024-05-14T08:00:00.3000000Z" level=debug msg="cni result: {}" podsandboxid=${B}`,
    `time="2024-05-14T08:00:09.0000000Z" level=debug msg="cni result: {}" podsandboxid=${A}`,
  ].join('\n');
  const calico = [
    `2024-05-14 08:00:01.050 [INFO][77] k8s.go 72: Extracted identifiers for CmdAddK8s ContainerID="${A}" Namespace="shop" Pod="web-1"`,
    `2024-05-14 08:00:01.100 [INFO][77] dataplane_windows.go 789: Attempting to create HostComputeEndpoint: ${A}_Calico for container ContainerID="${A}"`,
    `2024-05-14 08:00:08.900 [INFO][77] dataplane_windows.go 854: Endpoint to container created! ContainerID="${A}"`,
  ].join('\n');
  const ts = buildTimelines([parseLogFile(ctrd, 'containerd.log').value, parseLogFile(calico, 'calico/cni/cni.log').value]);

  it('the slowest ADD comes first', () => {
    expect(ts.map((t) => [t.sandboxId, t.add])).toEqual([
      [A, 8000],
      [B, 200],
    ]);
  });
  it("containerd's and the plugin's lines interleave by time", () => {
    expect(ts[0].steps.map((s) => `${s.component}:${s.line}`)).toEqual(['containerd:2', 'calico:1', 'calico:2', 'calico:3', 'containerd:4']);
    expect(ts[0].pod).toEqual({ namespace: 'shop', name: 'web-1' });
    expect(ts[0].longestGap).toMatchObject({ ms: 7800, from: 'calico: creating the HNS endpoint', to: 'calico: endpoint attached to the container' });
  });
});

describe('never negative, whatever the order and precision of the lines', () => {
  it('random lines of one sandbox in random order and precision', () => {
    const stamp = fc.record({ ms: fc.integer({ min: 0, max: 20_000 }), coarse: fc.boolean(), zap: fc.boolean() });
    fc.assert(
      fc.property(fc.array(stamp, { minLength: 2, maxLength: 25 }), (xs) => {
        const lines = xs.map((x, i) => {
          const d = new Date(Date.UTC(2024, 4, 14, 8, 0, 0) + x.ms);
          if (x.zap) return zap(d.toISOString(), i === 0 ? '[cni-net] Processing ADD command' : `step ${i}`, { containerId: A });
          const s = d.toISOString().replace('T', ' ').replace(/-/g, '/');
          return `${x.coarse ? s.slice(0, 19) : s.slice(0, 19)} [4242] [net] step ${i} ${A}`;
        });
        for (const t of buildTimelines([parseLogFile(lines.join('\n'), 'azure-vnet.log').value])) {
          let prev = -1;
          for (const s of t.steps) {
            if (s.at === undefined) continue;
            expect(s.at).toBeGreaterThanOrEqual(prev);
            expect(s.gap ?? 0).toBeGreaterThanOrEqual(0);
            prev = s.at;
          }
          if (t.add !== undefined) expect(t.add).toBeGreaterThanOrEqual(0);
          if (t.longestGap) expect(t.longestGap.ms).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 200 },
    );
  });
});
