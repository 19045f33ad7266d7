// Real outputs from public issues (../shared/corpus, each with a `.src`):
// the plugin each one names, and the CNI ADD timelines of each plugin's real log lines. A file is read
// under the name a bundle would give it (a pasted network list is network.txt, a plugin log *.log).
import { describe, expect, it } from 'vitest';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { parseLogFile } from '../../../parsers/logs/index.ts';
import { detectPlatform } from '../../../analysis/platform/index.ts';
import { CHECKS, runChecks } from '../../../analysis/checks/index.ts';
import { plural } from '../../../parsers/text/quantities.ts';
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
    expect(p.label).toBe('Calico (mode not known)');
  });
  it('the AKS Overlay conflist (ACN#2281, cut inside dns.Search) still names Azure CNI Overlay', () => {
    const p = detectPlatform(bundle([['cni-config-azure-vnet-overlay__Azure-azure-container-networking-pr-2281.txt', '10-azure.conflist']]));
    expect(p.plugin).toBe('azure-cni-overlay');
    expect(p.evidence[0].says).toMatch(/not valid JSON \(cut\?\), but names plugin "azure-vnet" with ipam "azure-cns" mode "overlay" \(Azure CNI Overlay/);
  });
  it('the cut conflist is a warning that says it looks cut, not an error that containerd cannot load it', () => {
    const fs = runChecks(bundle([['cni-config-azure-vnet-overlay__Azure-azure-container-networking-pr-2281.txt', '10-azure.conflist']]));
    expect(fs.filter((f) => f.severity !== 'info').map((f) => [f.severity, f.id, f.title])).toEqual([['warning', 'cni-config-invalid', 'CNI config 10-azure.conflist looks cut: it ends inside its JSON']]);
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

// The same logs under a name that says nothing: the plugin comes from the lines themselves.
describe.skipIf(!CORPUS)('plugin logs recognised by their lines, whatever the file is called', () => {
  const alone = (src: string, name: string) => {
    const p = detectPlatform(bundle([[src, name]]));
    return { plugin: p.plugin, label: p.label, confidence: p.confidence, evidence: p.evidence.map((e) => [e.file, e.line, e.kind, e.says]) };
  };
  for (const name of ['x.txt', 'x.log']) {
    it(`${name}: the Antrea agent log (antrea#2406)`, () => {
      expect(alone('antrea-agent-log-cmdadd__antrea-io-antrea-pr-2406.txt', name)).toEqual({ plugin: 'antrea', label: 'Antrea', confidence: 'low', evidence: [[name, 1, 'log', `${name} is the Antrea agent log (by its lines)`]] });
    });
    it(`${name}: the azure-vnet text log (ACN#335) names its ipam, azure-vnet-ipam: VNet pod IPs`, () => {
      expect(alone('azure-cni-log-add__Azure-azure-container-networking-issue-335.txt', name)).toEqual({
        plugin: 'azure-cni',
        label: 'Azure CNI (VNet pod IPs)',
        confidence: 'low',
        evidence: [
          [name, 1, 'log', `${name} is the Azure CNI plugin (azure-vnet) log (by its lines)`],
          [name, 2, 'log', 'the azure-vnet log shows the plugin read a config with ipam azure-vnet-ipam (pod IPs from the VNet)'],
        ],
      });
    });
    it(`${name}: the azure-vnet zap JSON log (ACN#2143): Azure CNI, mode not known`, () => {
      expect(alone('azure-cni-log-zap-json__Azure-azure-container-networking-pr-2143.txt', name)).toEqual({ plugin: 'azure-cni', label: 'Azure CNI (mode not known)', confidence: 'low', evidence: [[name, 1, 'log', `${name} is the Azure CNI plugin (azure-vnet) log (by its lines)`]] });
    });
    it(`${name}: the Calico CNI log (calico#9120) and the Felix log (calico#7305): Calico, mode not known`, () => {
      expect(alone('calico-cni-log-windows-dataplane__projectcalico-calico-issue-9120.txt', name)).toMatchObject({ label: 'Calico (mode not known)', confidence: 'low', evidence: [[name, 1, 'log', `${name} is the Calico CNI plugin / calico-node log (by its lines)`]] });
      expect(alone('felix-log-windows-service__projectcalico-calico-issue-7305.txt', name)).toMatchObject({ label: 'Calico (mode not known)', confidence: 'low', evidence: [[name, 1, 'log', `${name} is the log of Calico's Felix agent (by its lines)`]] });
    });
    it(`${name}: the flanneld log (flannel#833) says its backend: Flannel VXLAN`, () => {
      expect(alone('flanneld-log-hostgw-existing-network__flannel-io-flannel-issue-833.txt', name)).toEqual({
        plugin: 'flannel-vxlan',
        label: 'Flannel VXLAN',
        confidence: 'low',
        evidence: [
          [name, 12, 'log', 'flanneld says its backend is vxlan'],
          [name, 4, 'log', `${name} is the flanneld log (by its lines)`],
        ],
      });
    });
    it(`${name}: a kubelet log naming a "<sandbox>_Calico" endpoint (calico#4334): Calico, a hint`, () => {
      expect(alone('kubelet-log-wrapped-sandbox-calico__projectcalico-calico-issue-4334.txt', name)).toEqual({ plugin: 'calico-vxlan', label: 'Calico (mode not known)', confidence: 'low', evidence: [[name, 1, 'log', 'a log line names endpoint "032dbbc728e4…_Calico": Calico names pod endpoints "<sandbox id>_Calico"']] });
    });
    it(`${name}: kube-proxy failing to create its source VIP (k/k#100962): an overlay network, but no plugin named`, () => {
      const r = alone('kube-proxy-log-winkernel-sourcevip__kubernetes-kubernetes-issue-100962.txt', name);
      expect(r).toEqual({ plugin: 'unknown', label: 'Unknown network plugin', confidence: 'low', evidence: [[name, 4, 'kube-proxy', 'kube-proxy tries to create a source-VIP endpoint, which it does only on an HNS network of type Overlay (winkernel proxier.go syncProxyRules)']] });
      const f = runChecks(bundle([['kube-proxy-log-winkernel-sourcevip__kubernetes-kubernetes-issue-100962.txt', name]])).find((x) => x.id === 'checks-not-applicable');
      expect(f?.explanation).toMatch(/no log written by a plugin\. The bundle only narrows it down: kube-proxy tries to create a source-VIP endpoint/);
    });
  }
  it('the source-VIP error, once whole and once cut before its code (k/k#100962), is one finding of that code', () => {
    const fs = runChecks(bundle([['kube-proxy-log-winkernel-sourcevip__kubernetes-kubernetes-issue-100962.txt', 'kube-proxy.log']]));
    expect(fs.map((f) => [f.severity, f.id, f.title, f.evidence.map((e) => e.line)])).toEqual([
      ['error', 'log-hns-addr-invalid-or-reserved', 'HNS answered HCN_E_ADDR_INVALID_OR_RESERVED (0x803b002f): An address provided is invalid or reserved (2 lines)', [4, 7]],
      // Every check that names its platforms is skipped when the plugin is not known (counted, so adding
      // a platform check does not change this test: CONTRIBUTING.md "Add a check").
      ['info', 'checks-not-applicable', `${plural(CHECKS.filter((c) => c.platforms !== 'any').length, 'check')} skipped: the network plugin is not known`, [4]],
    ]);
  });
  it('a plugin log named like it (antrea-agent.log) counts once', () => {
    expect(alone('antrea-agent-log-cmdadd__antrea-io-antrea-pr-2406.txt', 'antrea-agent.log').evidence).toEqual([['antrea-agent.log', 1, 'log', 'antrea-agent.log is the Antrea agent log (by its lines)']]);
  });
  it('the aks-engine conflist cut after its ipam (aks-engine#1235): azure-vnet-ipam means VNet pod IPs', () => {
    expect(alone('cni-config-azure-vnet__Azure-aks-engine-issue-1235.txt', '10-azure.conflist')).toEqual({
      plugin: 'azure-cni',
      label: 'Azure CNI (VNet pod IPs)',
      confidence: 'low',
      evidence: [['10-azure.conflist', 6, 'cni-config', '10-azure.conflist is not valid JSON (cut?), but names plugin "azure-vnet" with ipam "azure-vnet-ipam" (pod IPs from the VNet)']],
    });
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

describe('kube-proxy names the pod network it works on', () => {
  const enc = new TextEncoder();
  const model = (files: [string, string][]) => assembleModel(files.map(([name, text]) => parseBundleFile(name, enc.encode(text))), { location: 'mem', kind: 'folder', root: '' });
  it('VirtualNetworkName in a winkernel endpoint dump (the SDN#227 line shape) on network "cbr0": Flannel host-gw', () => {
    const p = detectPlatform(model([['kube-proxy.log', 'I0702 02:58:59.761220    1964 proxier.go:119] Hns Endpoint resource, {"ID":"b799ce1e-da48-480d-b2eb-c13436cf5653","Name":"Ethernet","VirtualNetwork":"8e68213e-9443-4395-a50c-3977cb7bdba7","VirtualNetworkName":"cbr0","Policies":[{"Type":"L2Driver"}]}\n']]));
    expect([p.plugin, p.label, p.evidence.map((e) => [e.file, e.line, e.kind, e.says])]).toEqual(['flannel-host-gw', 'Flannel host-gw', [['kube-proxy.log', 1, 'kube-proxy', 'kube-proxy works on HNS network "cbr0", the pod network name Flannel host-gw uses']]]);
  });
  it('VirtualNetworkName "l2bridge" (SDN#227 itself) is the operator\'s own name: no plugin', () => {
    expect(detectPlatform(model([['x.log', 'I0702 02:58:59.761220    1964 proxier.go:119] Hns Endpoint resource, {"ID":"b799ce1e-da48-480d-b2eb-c13436cf5653","Name":"Ethernet","VirtualNetworkName":"l2bridge"}\n']])).plugin).toBe('unknown');
  });
  it('--network-name in a kube-proxy start line: the network Calico names', () => {
    const p = detectPlatform(model([['kube-proxy.log', 'I0702 02:58:59.761220    1964 flags.go:59] FLAG: --network-name="Calico"\n']]));
    expect([p.plugin, p.label, p.evidence.map((e) => e.says)]).toEqual(['calico-vxlan', 'Calico (mode not known)', ['kube-proxy runs with --network-name "Calico", the pod network name Calico uses']]);
  });
});

describe('a CNI config that is not JSON', () => {
  it('whole but broken (a trailing comma): still the error that containerd cannot parse it', () => {
    const m = assembleModel([parseBundleFile('net.d/10-flannel.conflist', new TextEncoder().encode('{ "cniVersion": "0.3.0", "name": "cbr0", "plugins": [ { "type": "flannel", } ] }\n'))], { location: 'mem', kind: 'folder', root: '' });
    const f = runChecks(m).find((x) => x.id === 'cni-config-invalid')!;
    expect([f.severity, f.title]).toEqual(['error', 'CNI config 10-flannel.conflist is not valid JSON']);
  });
});
