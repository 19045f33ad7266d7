// The plugin and the cloud are named once (issue #25): the summary of an EKS node read "EKS vpc-bridge on
// EKS". A label that already names the cloud gets no " on <cloud>"; Azure CNI Overlay on AKS keeps it.
// Bundles: test/fixtures/foreign-eks-vpc-bridge, foreign-aks-overlay (README.md beside each).
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../../../services/bundle/load.ts';
import { detectPlatform, platformLine } from '../../../analysis/platform/index.ts';
import { cloudSuffix } from '../../../analysis/platform/name.ts';

describe('platform name', () => {
  it('EKS vpc-bridge is not said to run on EKS twice', async () => {
    const p = detectPlatform(await loadBundle('test/fixtures/foreign-eks-vpc-bridge'));
    expect(p.plugin).toBe('eks-vpc-bridge');
    expect(p.cloud).toBe('EKS');
    expect(platformLine(p)).toBe('EKS vpc-bridge (high confidence)');
  });
  it('Azure CNI Overlay still says its cloud', async () => {
    const p = detectPlatform(await loadBundle('test/fixtures/foreign-aks-overlay'));
    expect(p.plugin).toBe('azure-cni-overlay');
    expect(platformLine(p)).toMatch(/^Azure CNI Overlay on AKS/);
  });
  it.each([
    ['EKS vpc-bridge', 'EKS', ''],
    ['Azure CNI (VNet pod IPs)', 'Azure', ''],
    ['Azure CNI Overlay', 'AKS', ' on AKS'],
    ['Azure CNI Overlay', 'AKS / aks-engine', ' on AKS / aks-engine'],
    ['Calico VXLAN', 'RKE2', ' on RKE2'],
    ['OVN-Kubernetes (hybrid overlay)', 'OpenShift (WMCO)', ' on OpenShift (WMCO)'],
    ['Flannel VXLAN', undefined, ''],
  ])('%s + %s', (label, cloud, want) => expect(cloudSuffix(label, cloud)).toBe(want));
});
