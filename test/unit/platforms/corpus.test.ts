// Real outputs from public issues (../shared/corpus, each with a `.src`):
// the plugin each one names, and the CNI ADD timelines of each plugin's real log lines. A file is read
// under the name a bundle would give it (a pasted network list is network.txt, a plugin log *.log).
import { describe, expect, it } from 'vitest';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { parseLogFile } from '../../../parsers/logs/index.ts';
import { detectPlatform } from '../../../analysis/platform/index.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { buildTimelines } from '../../../analysis/timeline/index.ts';
import { CORPUS, corpusBytes, corpusText } from '../../helpers/corpus.ts';

const bundle = (files: [string, string][]) => assembleModel(files.map(([src, name]) => parseBundleFile(name, corpusBytes(src))), { location: 'corpus', kind: 'folder', root: '' });

describe.skipIf(!CORPUS)('which plugin real outputs name', () => {
  it('Get-HNSNetwork of a flannel VXLAN node (k/k#94924): Flannel VXLAN by the network name', () => {
    const p = detectPlatform(bundle([['hns-network-list-flannel-overlay__kubernetes-kubernetes-issue-94924.txt', 'network.txt']]));
    expect(p.plugin).toBe('flannel-vxlan');
    expect(p.confidence).toBe('medium');
    expect(p.evidence[0]).toMatchObject({ file: 'network.txt', says: expect.stringContaining('"flannel.4096"') });
  });
  it('a Calico pod endpoint (calico#4682): Calico, but only a hint, so low confidence and no mode', () => {
    const p = detectPlatform(bundle([['hns-endpoint-json__projectcalico-calico-issue-4682.txt', 'endpoint.txt']]));
    expect(p.plugin.startsWith('calico')).toBe(true);
    expect(p.confidence).toBe('low');
    expect(p.label).toMatch(/\(mode not known\)$/);
  });
  it('the AKS Overlay conflist (ACN#2281, cut inside dns.Search) still names Azure CNI Overlay', () => {
    const p = detectPlatform(bundle([['cni-config-azure-vnet-overlay__Azure-azure-container-networking-pr-2281.txt', '10-azure.conflist']]));
    expect(p.plugin).toBe('azure-cni-overlay');
    expect(p.evidence[0].says).toMatch(/not valid JSON \(cut\?\), but names plugin "azure-vnet" with ipam mode "overlay"/);
  });
  it('crictl info of a nat-only containerd host (containerd#6300): nat', () => {
    expect(detectPlatform(bundle([['cni-config-crictl-info-nat__containerd-containerd-issue-6300.txt', 'crictl-info.json']])).plugin).toBe('nat');
  });
  it('the conflist and the azure-vnet log together: Azure CNI Overlay, two kinds of evidence', () => {
    const p = detectPlatform(bundle([
      ['cni-config-azure-vnet-overlay__Azure-azure-container-networking-pr-2281.txt', '10-azure.conflist'],
      ['azure-cni-log-zap-json__Azure-azure-container-networking-pr-2143.txt', 'azure-vnet.log'],
    ]));
    expect(p).toMatchObject({ plugin: 'azure-cni-overlay', confidence: 'medium' });
  });
  it('remote endpoints alone (AKS#1367) name no plugin: the plugin-specific checks say they did not run', () => {
    const m = bundle([['hns-endpoint-json__Azure-AKS-issue-1367.txt', 'endpoint.txt']]);
    expect(detectPlatform(m).plugin).toBe('unknown');
    const fs = runChecks(m);
    expect(fs.filter((f) => f.severity === 'error')).toEqual([]);
    expect(fs.find((f) => f.id === 'checks-not-applicable')?.objects).toEqual(expect.arrayContaining(['pod-gateway', 'remote-subnets', 'outboundnat']));
  });
});

describe.skipIf(!CORPUS)('CNI ADD timelines of real plugin logs', () => {
  it('azure-vnet zap JSON (ACN#2143): time, level and message parsed, the pid ties the lines to the ADD', () => {
    const [t] = buildTimelines([parseLogFile(corpusText('azure-cni-log-zap-json__Azure-azure-container-networking-pr-2143.txt'), 'azure-vnet.log').value]);
    expect(t.sandboxId).toBe('45dce45f6be6bbcbdbf95275743763425abe026a690153b287365f5d4aaa9e61');
    expect(t.pod).toEqual({ namespace: 'default', name: 'windows-pod23' });
    expect(t.steps.map((s) => [s.line, s.level, s.message, s.at])).toEqual([
      [1, 'info', 'Plugin Info', 0],
      // The legacy text line between them is the same process (pid 11200); it has no level, and its
      // whole-second time cannot put it before the ADD's start.
      [2, undefined, '[net] Restored state', 0],
      [3, 'info', 'Plugin started', 1],
      [4, 'info', '[cni-net] Processing ADD command', 1],
    ]);
    expect(t.steps[0].clock).toBe('2023-08-15 20:51:20.379000');
  });
  it('Calico CNI (calico#9120): one call by its pid, steps named, sorted, gaps not negative', () => {
    const [t] = buildTimelines([parseLogFile(corpusText('calico-cni-log-windows-dataplane__projectcalico-calico-issue-9120.txt'), 'cni.log').value]);
    expect(t.pod).toEqual({ namespace: 'default', name: 'win-webserver-6678868fb5-ktg29' });
    expect(t.steps.map((s) => s.label)).toEqual(['calico: waiting for the network lock', 'calico: network lock acquired', 'calico: single network name used', 'calico: HNS network found']);
    expect(t.steps.map((s) => s.at)).toEqual([0, 0, 1, 18]);
    expect(t.longestGap).toMatchObject({ ms: 17, from: 'calico: single network name used', to: 'calico: HNS network found', plugin: true });
  });
  it('Antrea agent (antrea#2406): the CmdAdd request starts the timeline of its sandbox', () => {
    const ts = buildTimelines([parseLogFile(corpusText('antrea-agent-log-cmdadd__antrea-io-antrea-pr-2406.txt'), 'antrea-agent.log').value]);
    expect(ts[0]).toMatchObject({ sandboxId: 'd636c4374967a6f90d9b802d9bf24cb4f060e716b0ec8165fcc59be2a59daf28', pod: { namespace: 'network-policy-1573', name: 'server-g4kvm' } });
    expect(ts[0].steps[0]).toMatchObject({ label: 'antrea: Received CmdAdd request', level: 'info' });
  });
});
