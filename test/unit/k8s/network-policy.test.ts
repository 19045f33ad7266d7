// NetworkPolicies on this node (issue #26 part 2, first step): label selector semantics, a policy
// selecting pods of a Flannel node that nothing enforces, and "not verified" where a plugin renders
// policies as ACLs hnsight does not yet compare.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildPlatform } from '../platforms/helpers.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { selects } from '../../../analysis/checks/network-policy.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { PlatformName } from '../../../tools/gen/index.ts';

describe('label selectors (metav1.LabelSelector)', () => {
  const sel = (matchLabels: Record<string, string>, matchExpressions: { key: string; operator: string; values: string[] }[] = []) => ({ matchLabels, matchExpressions });
  it('matchLabels and each operator', () => {
    expect(selects(sel({}), { any: 'x' })).toBe(true);
    expect(selects(sel({ app: 'web' }), { app: 'web', tier: 'x' })).toBe(true);
    expect(selects(sel({ app: 'web' }), { app: 'db' })).toBe(false);
    expect(selects(sel({}, [{ key: 'env', operator: 'In', values: ['prod', 'qa'] }]), { env: 'qa' })).toBe(true);
    expect(selects(sel({}, [{ key: 'env', operator: 'NotIn', values: ['prod'] }]), {})).toBe(true);
    expect(selects(sel({}, [{ key: 'env', operator: 'Exists', values: [] }]), {})).toBe(false);
    expect(selects(sel({}, [{ key: 'env', operator: 'DoesNotExist', values: [] }]), {})).toBe(true);
  });
  it('property: In and NotIn of the same values never both hold', () => {
    fc.assert(fc.property(fc.dictionary(fc.constantFrom('a', 'b'), fc.constantFrom('1', '2')), fc.array(fc.constantFrom('1', '2')), (labels, values) => {
      const inn = selects(sel({}, [{ key: 'a', operator: 'In', values }]), labels);
      const notIn = selects(sel({}, [{ key: 'a', operator: 'NotIn', values }]), labels);
      expect(inn && notIn).toBe(false);
    }));
  });
});

const withPolicy = (platform: PlatformName) => buildPlatform(platform, {}, {}, (p, t) => {
  if (p !== 'kubectl-get-all.json') return t;
  const doc = JSON.parse(t);
  // The bundle's own node is the first Node the generator lists (win-node-0, akswin…, winworker-000).
  const self = doc.items.find((i: { kind: string }) => i.kind === 'Node').metadata.name;
  const pod = doc.items.find((i: { kind: string; spec: { nodeName: string } }) => i.kind === 'Pod' && i.spec.nodeName === self);
  doc.items.push({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'deny-all', namespace: pod.metadata.namespace }, spec: { podSelector: { matchLabels: pod.metadata.labels }, policyTypes: ['Ingress'] } });
  return JSON.stringify(doc, null, 2);
});
const ofPolicy = (m: NodeModel) => runChecks(m).filter((f) => f.id.startsWith('network-policy'));

describe('who enforces a policy here', () => {
  it('Flannel, no ACL on any pod: the policy is not enforced (warning naming it)', () => {
    for (const p of ['flannel-host-gw', 'flannel-vxlan'] as PlatformName[]) {
      const fs = ofPolicy(withPolicy(p).model);
      expect(fs.map((f) => `${f.severity} ${f.id}`)).toEqual(['warning network-policy-not-enforced']);
      expect(fs[0].objects[0]).toMatch(/\/deny-all$/);
      expect(fs[0].evidence[0].file).toBe('kubectl-get-all.json');
    }
  });
  it('Flannel with ACLs on its endpoints (another agent programs them): "not verified"; Calico: compared', () => {
    const { model } = withPolicy('flannel-vxlan');
    const acl = { ...model, endpoints: model.endpoints!.map((e) => ({ ...e, policies: [...e.policies, { type: 'ACL', settings: { Action: 'Allow', Direction: 'In', Priority: 100 } }] })) };
    expect(ofPolicy(acl).map((f) => `${f.severity} ${f.id}`)).toEqual(['info network-policy-not-verified']);
    // Calico renders policies as ACLs: a deny-all policy over the generated allow-all ACLs is a difference (network-policy-acl.test.ts).
    expect(ofPolicy(withPolicy('calico-vxlan').model).map((f) => `${f.severity} ${f.id}`)).toEqual(['error network-policy-acl-allows-denied']);
  });
  it('AKS without an Azure NPM pod: not enforced; OVS-based plugins: not verifiable, saying why', () => {
    const aks = ofPolicy(withPolicy('azure-cni').model);
    expect(aks.map((f) => `${f.severity} ${f.id}`)).toEqual(['warning network-policy-not-enforced']);
    expect(aks[0].explanation).toMatch(/no Azure NPM pod/);
    const ovn = ofPolicy(withPolicy('ovn-kubernetes').model);
    expect(ovn.map((f) => `${f.severity} ${f.id}`)).toEqual(['info network-policy-not-verified']);
    expect(ovn[0].explanation).toMatch(/Open vSwitch/);
  });
  it('without policies: nothing', () => {
    expect(ofPolicy(buildPlatform('flannel-vxlan').model)).toEqual([]);
  });
});
