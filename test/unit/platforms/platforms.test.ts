// A healthy node of every network plugin shows the right plugin and no error or warning; each of its
// faults yields exactly the findings it must (the whole list of errors and warnings is compared).
// The nodes come from the generator's platform shapes (tools/gen/platforms.ts, from
// the plugins' own code, cited in analysis/checks/README.md), side files included (CNI config, plugin/containerd/kubelet logs,
// kubectl snapshot).
import { describe, expect, it } from 'vitest';
import { FAULTS, PLATFORM_FAULTS, PLATFORMS, PROFILES, type PlatformName } from '../../../tools/gen/index.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { detectPlatform } from '../../../analysis/platform/index.ts';
import { buildTimelines } from '../../../analysis/timeline/index.ts';
import type { Finding } from '../../../analysis/findings/types.ts';
import { buildPlatform } from './helpers.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Fault = (typeof FAULTS)[number] | (typeof PLATFORM_FAULTS)[number];
const problems = (fs: Finding[]) => fs.filter((f) => f.severity !== 'info').map((f) => `${f.severity} ${f.id}`).sort();

const LABEL: Record<PlatformName, RegExp> = {
  'flannel-host-gw': /^Flannel host-gw$/,
  'flannel-vxlan': /^Flannel VXLAN$/,
  'azure-cni': /^Azure CNI \(VNet pod IPs\)$/,
  'azure-cni-overlay': /^Azure CNI Overlay$/,
  'eks-vpc-bridge': /^EKS vpc-bridge$/,
  'calico-vxlan': /^Calico VXLAN$/,
  'calico-bgp': /^Calico BGP/,
  antrea: /^Antrea$/,
  'ovn-kubernetes': /^OVN-Kubernetes/,
  nat: /^nat/,
};
const CLOUD: Partial<Record<PlatformName, string>> = { 'azure-cni': 'AKS / aks-engine', 'azure-cni-overlay': 'AKS / aks-engine', 'eks-vpc-bridge': 'EKS', 'ovn-kubernetes': 'OpenShift (WMCO)' };

/** What each fault must yield on each plugin ('n/a': the plugin has no such thing). */
function expected(p: PlatformName, fault: Fault): string[] | 'n/a' {
  const prof = PROFILES[p];
  const nat = p === 'nat';
  switch (fault) {
    case 'exception-list-typo':
      if (nat || p === 'antrea') return 'n/a';
      // The typo came from the CNI config where the config carries the list (flannel, Azure, WMCO);
      // Calico's config lists only the service CIDR (the pools are added by the plugin), EKS none.
      return p.startsWith('calico') || p === 'eks-vpc-bridge' ? ['error outboundnat-exception-typo'] : ['error cni-exception-typo', 'error outboundnat-exception-typo'];
    case 'stale-lb-dip':
      return prof.kubeProxy ? ['error lb-stale-dip'] : 'n/a';
    case 'missing-remote-subnet-route':
      if (prof.crossNode === 'host-routes') return [p === 'calico-bgp' ? 'warning remote-subnet-no-route' : 'error remote-subnet-no-route'];
      return prof.crossNode === 'remote-subnet-routes' ? ['error drift-remote-subnet-route'] : 'n/a';
    case 'blocked-port':
      return ['error vfp-port-blocked'];
    case 'endpoint-without-vnic':
      return ['error endpoint-without-vnic'];
    case 'wrong-gateway':
      return nat ? 'n/a' : ['error pod-gateway-wrong'];
    case 'duplicate-ip':
      return ['error duplicate-ip'];
    case 'slow-cni-add':
      return ['warning cni-add-slow'];
    case 'cni-add-failures':
      // The generated failure carries HNS's 0x803b001e: named by the error it explains (parsers/hns/errors.ts).
      return ['error log-hns-invalid-ip'];
    case 'stale-backend':
      return prof.kubeProxy && !nat ? ['error k8s-backends-drift'] : 'n/a';
    case 'missing-backend':
      return prof.kubeProxy && !nat ? ['warning k8s-backends-drift'] : 'n/a';
  }
}

/** The plugin step the slow-cni-add fault stalls in, as the finding must name it. */
const SLOW_STEP: Record<PlatformName, [string, string]> = {
  'flannel-host-gw': ['wincni: calling the IPAM plugin', 'wincni: IPAM result'],
  'flannel-vxlan': ['wincni: calling the IPAM plugin', 'wincni: IPAM result'],
  nat: ['wincni: calling the IPAM plugin', 'wincni: IPAM result'],
  'azure-cni': ['azure-vnet: creating the HCN endpoint', 'azure-vnet: HCN endpoint created'],
  'azure-cni-overlay': ['azure-vnet: creating the HCN endpoint', 'azure-vnet: HCN endpoint created'],
  'eks-vpc-bridge': ['vpc-bridge: creating the HCN endpoint', 'vpc-bridge: HCN endpoint created'],
  'calico-vxlan': ['calico: creating the HNS endpoint', 'calico: endpoint attached to the container'],
  'calico-bgp': ['calico: creating the HNS endpoint', 'calico: endpoint attached to the container'],
  antrea: ['antrea: configuring the IP address', 'antrea: adding the OVS port'],
  // WMCO's win-overlay writes no log: only containerd frames the ADD.
  'ovn-kubernetes': ['containerd: begin cni setup', 'containerd: cni result'],
};

describe('healthy node of every plugin: the right plugin, no error, no warning', () => {
  for (const p of PLATFORMS) {
    for (const schema of [2, 1] as const) {
      it(`${p} (HNS schema ${schema})`, () => {
        const { model } = buildPlatform(p, schema === 1 ? { schema: 1, windowsBuild: '10.0.17763.5830', vfpGeneration: 'list-rule' } : {});
        const plat = detectPlatform(model);
        expect(plat.plugin).toBe(p);
        expect(plat.label).toMatch(LABEL[p]);
        expect(plat.confidence).toBe('high');
        if (CLOUD[p]) expect(plat.cloud).toBe(CLOUD[p]);
        const fs = runChecks(model);
        expect(problems(fs)).toEqual([]);
        // Checks that rely on another plugin's facts say so instead of running.
        const skipped = fs.find((f) => f.id === 'checks-not-applicable');
        if (PROFILES[p].crossNode === 'fabric' || PROFILES[p].crossNode === 'none') expect(skipped?.objects).toContain('remote-subnets');
        else if (skipped) expect(skipped.objects).not.toContain('remote-subnets');
        // Every pod ADD in the logs is a succeeded timeline with a named plugin step.
        const ts = buildTimelines(model.logs ?? []);
        expect(ts.length).toBeGreaterThanOrEqual(6);
        expect(ts.every((t) => t.outcome === 'succeeded' && t.add !== undefined && t.add < 3000)).toBe(true);
      });
    }
  }
});

describe('faults of every plugin yield exactly their findings', () => {
  for (const p of PLATFORMS) {
    for (const fault of [...FAULTS, ...PLATFORM_FAULTS] as Fault[]) {
      const want = expected(p, fault);
      if (want === 'n/a') {
        it(`${p}: ${fault} cannot be built (the plugin has no such object)`, () => {
          expect(() => buildPlatform(p, { faults: [fault] })).toThrow();
        });
        continue;
      }
      it(`${p}: ${fault}`, () => {
        const { model, node } = buildPlatform(p, { faults: [fault] });
        const fs = runChecks(model);
        expect(problems(fs)).toEqual(want);
        const f = fs.find((x) => x.severity !== 'info')!;
        expect(f.evidence.length).toBeGreaterThan(0);
        for (const e of f.evidence) if (e.line > 0) expect(e.text.length).toBeGreaterThan(0);
        const truth = node.expected.faults[0];
        if (fault === 'slow-cni-add') {
          const [from, to] = SLOW_STEP[p];
          expect(f.title).toContain(`"${from}" and "${to}"`);
          // windows-container-networking's IPAM delegate runs between those two lines: not HNS.
          if (to === 'wincni: IPAM result') expect(f.fix).toMatch(/^The plugin was waiting for its IPAM plugin/);
          expect(f.title).toContain(truth.objects[0]);
          // Both lines quoted, from the plugin's own log when it writes one.
          expect(f.evidence).toHaveLength(2);
          if (p !== 'ovn-kubernetes') expect(f.evidence.every((e) => !/containerd|kubelet/.test(e.file))).toBe(true);
        }
        if (fault === 'cni-add-failures') {
          expect(f.title).toMatch(new RegExp(`${truth.objects[0]}, 3 attempts$`));
          expect(f.explanation).toMatch(/0x803b001e|not part of any configured subnet/);
        }
        if (fault === 'stale-backend' || fault === 'missing-backend') {
          expect(f.objects).toEqual(expect.arrayContaining([truth.objects[1]]));
          expect(f.title).toContain(truth.objects[0]);
        }
        if (fault === 'wrong-gateway') expect(f.objects[0].toLowerCase()).toBe(truth.objects[0].toLowerCase());
        if (fault === 'missing-remote-subnet-route') expect(f.objects[0]).toBe(truth.objects[0]);
      });
    }
  }
});

describe('evidence that disagrees', () => {
  it('a stray log of another plugin lowers confidence one step; the errors stay errors', () => {
    const antreaLog = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/logs/antrea-agent.log'), 'utf8');
    const { model } = buildPlatform('flannel-host-gw', { faults: ['wrong-gateway'] }, {}, undefined, { 'antrea-agent.log': antreaLog });
    const p = detectPlatform(model);
    expect(p).toMatchObject({ plugin: 'flannel-host-gw', confidence: 'medium' });
    expect(p.conflicts.map((c) => c.says)).toEqual(['antrea-agent.log is the Antrea agent log (by its lines)']);
    // (the Antrea log's own slow ADD is reported too: it is a fact of that log)
    expect(problems(runChecks(model))).toEqual(['error pod-gateway-wrong', 'warning cni-add-slow']);
  });
  it('a CNI config of another plugin makes it low: plugin-specific errors become warnings that say why', () => {
    const azureConf = JSON.stringify({ cniVersion: '0.3.0', name: 'azure', plugins: [{ type: 'azure-vnet', ipam: { type: 'azure-cns', mode: 'overlay' } }] });
    const { model } = buildPlatform('flannel-host-gw', { faults: ['wrong-gateway'] }, {}, (p, t) => (p === 'net.d/10-flannel.conf' ? azureConf : t));
    const p = detectPlatform(model);
    expect(p.plugin).toBe('flannel-host-gw');
    expect(p.confidence).toBe('low');
    expect(p.conflicts.map((c) => c.kind)).toContain('cni-config');
    const f = runChecks(model).find((x) => x.id === 'pod-gateway-wrong')!;
    expect(f.severity).toBe('warning');
    expect(f.undecided).toBe(true);
    expect(f.explanation).toMatch(/not sure this node runs Flannel host-gw \(the bundle also points to .*azure-vnet/);
  });
});

describe('a mode the bundle only hints at', () => {
  const noConfig = (f: string, t: string) => (/conflist$|net\.d\//.test(f) ? '' : t);
  it('Azure without its CNI config: the mode from the addressing is said to be inferred, and confidence is not high', () => {
    const overlay = detectPlatform(buildPlatform('azure-cni-overlay', {}, {}, noConfig).model);
    // A pod range apart from the node's subnet fits Overlay and a pod subnet (dynamic IPs) alike: the
    // addressing alone does not tell the mode.
    expect([overlay.plugin, overlay.label, overlay.confidence]).toEqual(['azure-cni-overlay', 'Azure CNI (mode not known)', 'medium']);
    const vnet = detectPlatform(buildPlatform('azure-cni', {}, {}, noConfig).model);
    expect([vnet.plugin, vnet.label, vnet.confidence]).toEqual(['azure-cni', 'Azure CNI (VNet pod IPs, inferred from the addressing)', 'medium']);
  });
});

describe('the platform facts behind the shapes', () => {
  it('Azure CNI Overlay hands out .2 to a pod, which is not mistaken for a bridge endpoint', () => {
    const { model } = buildPlatform('azure-cni-overlay');
    const pod2 = model.endpoints!.find((e) => e.ip?.endsWith('.2') && !e.isRemote)!;
    expect(pod2.gateway).toMatch(/\.1$/);
    expect(problems(runChecks(model))).toEqual([]);
  });
  it("Flannel VXLAN's source-VIP endpoint (no compartment) is no pod without a vNIC", () => {
    const { model } = buildPlatform('flannel-vxlan');
    const svip = model.loadBalancers![0].sourceVip;
    expect(svip).toBeDefined();
    expect(model.endpoints!.some((e) => e.ip === svip && !e.isRemote)).toBe(true);
    expect(problems(runChecks(model))).toEqual([]);
  });
  it('EKS names its node ip-….ec2.internal while Windows calls itself otherwise', () => {
    const { model, node } = buildPlatform('eks-vpc-bridge', { hostName: 'EC2AMAZ-K3J9Q2A' });
    expect(node.nodeName).toMatch(/^ip-10-0-\d+-4\.ec2\.internal$/);
    expect(model.k8s!.pods.filter((p) => p.nodeName === node.nodeName).length).toBe(6);
    expect(problems(runChecks(model))).toEqual([]);
  });
});
