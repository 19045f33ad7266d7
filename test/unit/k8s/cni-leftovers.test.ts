// CNI leftovers (issue #26 part 5): a Calico pod endpoint that still holds only the CNI's creation-time
// default deny (projectcalico/calico cni-plugin/pkg/dataplane/windows/dataplane_windows.go: Block, In,
// Protocols "256", Priority 65500), and two Running pods with one address.
import { describe, expect, it } from 'vitest';
import { buildPlatform } from '../platforms/helpers.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { isCalicoCniDefaultDeny } from '../../../analysis/checks/cni-leftovers.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { HnsPolicy } from '../../../parsers/hns/index.ts';

// As HNS v2 prints the ACL the CNI applies (hcn.AclPolicySetting marshalled), and v1 (hcsshim.ACLPolicy).
const V2: HnsPolicy = { type: 'ACL', settings: { RuleType: 'Switch', Action: 'Block', Direction: 'In', Protocols: '256', Priority: 65500 } };
const V1: HnsPolicy = { type: 'ACL', settings: { Id: 'CNIDefaultDenyAllPolicy', RuleType: 'Switch', Action: 'Block', Direction: 'In', Protocol: 256, Priority: 65500 } };
const FELIX: HnsPolicy = { type: 'ACL', settings: { Id: 'pol-default.allow-web', Action: 'Allow', Direction: 'In', Protocols: '6', LocalPorts: '80', Priority: 1000, RuleType: 'Switch' } };

const withAcls = (m: NodeModel, acls: (ip: string, i: number) => HnsPolicy[]): NodeModel => ({ ...m, endpoints: m.endpoints!.map((e, i) => (e.isRemote || !e.ip ? e : { ...e, policies: [...e.policies, ...acls(e.ip, i)] })) });
const found = (m: NodeModel) => runChecks(m).filter((f) => f.id === 'calico-cni-default-deny-only');

describe("the Calico CNI's default deny", () => {
  it('is recognised in both schemas, and an ACL with addresses or another priority is not it', () => {
    expect(isCalicoCniDefaultDeny(V2)).toBe(true);
    expect(isCalicoCniDefaultDeny(V1)).toBe(true);
    expect(isCalicoCniDefaultDeny({ type: 'ACL', settings: { ...V2.settings, Priority: 100 } })).toBe(false);
    expect(isCalicoCniDefaultDeny({ type: 'ACL', settings: { ...V2.settings, RemoteAddresses: '10.0.0.0/8' } })).toBe(false);
    expect(isCalicoCniDefaultDeny(FELIX)).toBe(false);
  });
  for (const platform of ['calico-vxlan', 'calico-bgp'] as const) {
    it(`${platform}: healthy (Felix's ACLs beside it) gives nothing; one new pod with only the default deny is an error naming it`, () => {
      const { model } = buildPlatform(platform, { pods: 5 });
      expect(found(withAcls(model, () => [V2, FELIX]))).toEqual([]);
      const first = model.endpoints!.find((e) => !e.isRemote && e.ip && !/_ep$/i.test(e.name))!.ip!;
      const fs = found(withAcls(model, (ip) => (ip === first ? [V2] : [V2, FELIX])));
      expect(fs.map((f) => f.severity)).toEqual(['error']);
      expect(fs[0].objects).toEqual([first]);
      expect(fs[0].title).toContain(first);
      expect(fs[0].explanation).toContain('created after Felix stopped');
    });
  }
  it('every pod with only the default deny: Felix is not running', () => {
    const { model } = buildPlatform('calico-vxlan', { pods: 4 });
    const [f] = found(withAcls(model, () => [V1]));
    expect(f.explanation).toContain('Felix is not running');
  });
  it('does not run on other plugins (their ACLs mean something else)', () => {
    const { model } = buildPlatform('flannel-vxlan', { pods: 4 });
    expect(found(withAcls(model, () => [V2]))).toEqual([]);
  });
});

describe('two Running pods with one address', () => {
  it('a healthy snapshot has none; a reused IP is named with both pods', () => {
    expect(runChecks(buildPlatform('azure-cni').model).filter((f) => f.id === 'k8s-duplicate-pod-ip')).toEqual([]);
    let ip = '';
    const { model } = buildPlatform('azure-cni', {}, {}, (p, t) => {
      if (p !== 'kubectl-get-all.json') return t;
      const doc = JSON.parse(t);
      const pods = doc.items.filter((i: { kind: string; status: { phase: string; podIP?: string } }) => i.kind === 'Pod' && i.status.phase === 'Running' && i.status.podIP);
      ip = pods[0].status.podIP;
      pods[1].status.podIP = ip;
      pods[1].status.podIPs = [{ ip }];
      return JSON.stringify(doc);
    });
    const fs = runChecks(model).filter((f) => f.id === 'k8s-duplicate-pod-ip');
    expect(fs.length).toBe(1);
    expect(fs[0].objects[0]).toBe(ip);
    expect(fs[0].objects.length).toBe(3);
  });
});
