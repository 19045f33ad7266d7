// The three Azure CNI modes, told apart by the ipam section of the azure-vnet config as
// Azure/azure-container-networking writes and reads it:
//   cni/azure-windows.conflist              ipam azure-vnet-ipam           → VNet pod IPs (node subnet)
//   cni/azure-windows-swift.conflist        ipam azure-cns, executionMode v4swift → pod subnet, dynamic IPs
//   cni/azure-windows-swift-overlay.conflist ipam azure-cns mode "overlay" → Overlay
// and cni/util/const.go: the ipam modes "v4overlay", "dualStackOverlay" and "overlay" are all Overlay
// (cni/network/invoker_cns.go `overlayMode := …`). Issue #23: a conflist with mode "v4overlay" was
// labelled "Azure CNI (VNet pod IPs), high confidence".
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { detectPlatform } from '../../../analysis/platform/index.ts';
import { checkApplicability } from '../../../analysis/checks/index.ts';
import { CORPUS, corpusBytes, corpusText } from '../../helpers/corpus.ts';

const enc = new TextEncoder();
const model = (files: [string, string | Uint8Array][]) => assembleModel(files.map(([name, t]) => parseBundleFile(name, typeof t === 'string' ? enc.encode(t) : t)), { location: 'mem', kind: 'folder', root: '' });
const aks = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/foreign/aks-win-zip-2025');

/** An AKS Windows conflist in the shape of ACN's cni/azure-windows*.conflist, with the ipam section given. */
function conflist(ipam: Record<string, string>, extra: Record<string, string> = {}): string {
  return JSON.stringify({ cniVersion: '0.3.0', name: 'azure', adapterName: '', plugins: [{ type: 'azure-vnet', mode: 'bridge', bridge: 'azure0', ...extra, capabilities: { portMappings: true, dns: true }, ipam, dns: { Nameservers: ['10.0.0.10', '168.63.129.16'], Search: ['svc.cluster.local'] } }] }, null, 2);
}

describe('the ipam section names the Azure CNI mode', () => {
  for (const mode of ['overlay', 'v4overlay', 'dualStackOverlay']) {
    it(`ipam azure-cns mode "${mode}": Azure CNI Overlay, and the evidence says so`, () => {
      const p = detectPlatform(model([['10-azure.conflist', conflist({ type: 'azure-cns', mode })]]));
      expect([p.plugin, p.label]).toEqual(['azure-cni-overlay', 'Azure CNI Overlay']);
      expect(p.evidence[0].says).toBe(`10-azure.conflist: plugin "azure-vnet" with ipam azure-cns mode "${mode}" (Azure CNI Overlay: pod IPs from the node's pod CIDR)`);
      expect(p.facts.find((f) => f.topic === 'pod gateway')?.fact).toMatch(/^\.1 of the pod subnet/);
    });
  }
  it('ipam azure-cns without an overlay mode, executionMode v4swift: the pod subnet mode (dynamic IPs)', () => {
    const p = detectPlatform(model([['10-azure.conflist', conflist({ type: 'azure-cns' }, { executionMode: 'v4swift' })]]));
    expect([p.plugin, p.label, p.confidence]).toEqual(['azure-cni-pod-subnet', 'Azure CNI (pod subnet, dynamic IP allocation)', 'medium']);
  });
  it('ipam azure-vnet-ipam: VNet pod IPs', () => {
    const p = detectPlatform(model([['10-azure.conflist', conflist({ type: 'azure-vnet-ipam' })]]));
    expect([p.plugin, p.label]).toEqual(['azure-cni', 'Azure CNI (VNet pod IPs)']);
  });
  it('property: whatever the letter case of an overlay mode, never VNet pod IPs', () => {
    for (const mode of ['OVERLAY', 'V4Overlay', 'dualstackoverlay', ' v4overlay ']) {
      expect(detectPlatform(model([['10-azure.conflist', conflist({ type: 'azure-cns', mode })]])).plugin, mode).toBe('azure-cni-overlay');
    }
  });
  it('the azure-vnet log line that prints the config it read names the mode too', () => {
    const line = '2023/08/15 20:51:20 [11200] [cni-net] Read network configuration &{CNIVersion:0.3.0 Name:azure Type:azure-vnet Mode:bridge Master: AdapterName: Bridge:azure0 LogLevel: LogTarget: InfraVnetAddressSpace: IPV6Mode: ServiceCidrs: VnetCidrs: PodNamespaceForDualNic:[] IPsToRouteViaHost:[] MultiTenancy:false EnableSnatOnHost:false EnableExactMatchForPodName:false DisableHairpinOnHostInterface:false DisableIPTableLock:false CNSUrl: ExecutionMode: IPAM:{Mode:v4overlay Type:azure-cns Environment: AddrSpace: Subnet: Address: QueryInterval:} Ipam:{Type:azure-cns Mode:v4overlay}}.\n';
    const p = detectPlatform(model([['azure-vnet.log', line]]));
    expect(p.plugin).toBe('azure-cni-overlay');
    expect(p.evidence.map((e) => e.says)).toContain('the azure-vnet log shows the plugin read a config with ipam azure-cns mode "v4overlay" (Azure CNI Overlay: pod IPs from the node\'s pod CIDR)');
  });
});

describe.skipIf(!CORPUS)('real configs (../shared/corpus)', () => {
  it('the AKS Overlay conflist (ACN#2281), and the same with the mode CNS writes ("v4overlay"): Overlay', () => {
    const real = corpusText('cni-config-azure-vnet-overlay__Azure-azure-container-networking-pr-2281.txt');
    for (const text of [real, real.replace('"mode":  "overlay"', '"mode":  "v4overlay"')]) {
      expect(text).toMatch(/"mode":\s+"(v4)?overlay"/);
      const p = detectPlatform(model([['10-azure.conflist', text]]));
      expect([p.plugin, p.label]).toEqual(['azure-cni-overlay', 'Azure CNI Overlay']);
    }
  });
  it('the aks-engine conflist (aks-engine#1235): VNet pod IPs', () => {
    const p = detectPlatform(model([['10-azure.conflist', corpusBytes('cni-config-azure-vnet__Azure-aks-engine-issue-1235.txt')]]));
    expect([p.plugin, p.label]).toEqual(['azure-cni', 'Azure CNI (VNet pod IPs)']);
  });
});

describe('the AKS bundle (test/fixtures/foreign/aks-win-zip-2025)', () => {
  it('as written (ipam azure-vnet-ipam, the node IP in the pod subnet and in the cluster CIDR): VNet pod IPs, high, nothing against it', async () => {
    const p = detectPlatform(await loadBundle(aks));
    expect([p.plugin, p.label, p.confidence, p.conflicts]).toEqual(['azure-cni', 'Azure CNI (VNet pod IPs)', 'high', []]);
    expect(p.evidence.map((e) => e.says)).toContain('the node IP 10.224.0.35 lies in the cluster CIDR 10.224.0.0/12 (kubeclusterconfig.json): pods share the VNet\'s addresses, which Overlay\'s pod CIDR may not');
  });
  it('with an Overlay conflist ("v4overlay") but VNet addressing: Overlay at medium, the addressing shown as conflicts, the VNet-only facts not used', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-aks-overlay-'));
    try {
      cpSync(aks, dir, { recursive: true });
      writeFileSync(path.join(dir, '10-azure.conflist'), conflist({ type: 'azure-cns', mode: 'v4overlay' }));
      const m = await loadBundle(dir);
      const p = detectPlatform(m);
      expect([p.plugin, p.label, p.confidence]).toEqual(['azure-cni-overlay', 'Azure CNI Overlay', 'medium']);
      expect(p.evidence.filter((e) => e.kind === 'cni-config').map((e) => e.says)).toEqual([expect.stringMatching(/ipam azure-cns mode "v4overlay" \(Azure CNI Overlay/)]);
      expect(p.conflicts.map((c) => [c.file, c.kind])).toEqual(expect.arrayContaining([['network.txt', 'addressing'], ['kubeclusterconfig.json', 'addressing']]));
      expect(p.conflicts.every((c) => !c.plugins.includes('azure-cni-overlay'))).toBe(true);
      // The checks run on Overlay's facts (pod gateway .1 of the node's pod CIDR), not VNet's.
      const plan = checkApplicability(m);
      expect(plan.platform.facts.find((f) => f.topic === 'OutboundNAT')?.fact).toBe('exceptions: cluster CIDRs only');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('a config for Overlay against a config-strength line for VNet (the azure-vnet log read azure-vnet-ipam): low', () => {
    const vnetLog = '2023/08/15 20:51:20 [11200] [cni-net] Read network configuration &{CNIVersion:0.3.0 Name:azure Type:azure-vnet Mode:bridge Ipam:{Type:azure-vnet-ipam Environment: AddrSpace:}}.\n';
    const p = detectPlatform(model([['10-azure.conflist', conflist({ type: 'azure-cns', mode: 'v4overlay' })], ['azure-vnet.log', vnetLog]]));
    expect(p.plugin).toBe('azure-cni-overlay');
    expect(p.conflicts.map((c) => c.says)).toContain('the azure-vnet log shows the plugin read a config with ipam azure-vnet-ipam (pod IPs from the VNet)');
    expect(p.confidence).not.toBe('high');
  });
});
