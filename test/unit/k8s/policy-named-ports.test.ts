// NetworkPolicy named ports and namespaceSelector on namespace labels (issue #26 point 1).
// Named ports: NetworkPolicyPort.port "can either be a numerical or named port on a pod"
// (kubernetes.io/docs/reference/kubernetes-api/policy-resources/network-policy-v1/): the name is
// resolved on the destination pod's containers' ports[].name; a name no container declares matches
// nothing. Namespace labels: the namespace-isolation policies of projectcalico/calico#4936 (a real
// cluster with Windows nodes), whose namespaceSelector picks namespaces by a label other than the name.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseKubectlJson } from '../../../parsers/k8s/index.ts';
import { policyIntent } from '../../../analysis/k8s/policy-eval.ts';
import type { K8sNetworkPolicy, K8sPod } from '../../../parsers/k8s/index.ts';

const list = (items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2);
const podObj = (name: string, ns: string, ip: string, labels: Record<string, string>, containers?: unknown[]) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels },
  spec: { nodeName: 'win-1', ...(containers ? { containers } : {}) }, status: { phase: 'Running', podIP: ip, podIPs: [{ ip }] },
});
const nsObj = (name: string, labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } } });
const web = [{ name: 'web', image: 'x', ports: [{ name: 'http', containerPort: 8080 }, { name: 'dns', containerPort: 5353, protocol: 'UDP' }] }, { name: 'side', ports: [{ name: 'metrics', containerPort: 9100 }] }];

// projectcalico/calico#4936: "allow-same-namespace" (from namespaces labelled stack: e1-dev).
const sameStack = {
  apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'allow-same-namespace', namespace: 'e1-dev' },
  spec: { podSelector: { matchLabels: {} }, ingress: [{ from: [{ namespaceSelector: { matchLabels: { stack: 'e1-dev' } } }] }] },
};
const namedPolicy = (port: string, proto = 'TCP') => ({
  apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'allow-http', namespace: 'default' },
  spec: { podSelector: { matchLabels: { app: 'web' } }, policyTypes: ['Ingress', 'Egress'], ingress: [{ ports: [{ protocol: proto, port }] }], egress: [{ ports: [{ protocol: proto, port }] }] },
});

function read(items: unknown[]) {
  const r = parseKubectlJson(list(items), 'k.json');
  expect(r.issues).toEqual([]);
  return r.value;
}
const byName = (pods: K8sPod[], n: string) => pods.find((p) => p.name === n)!;

describe('reading container ports and namespaces', () => {
  it('reads every container\'s ports (protocol defaulted to TCP) and the Namespace objects', () => {
    const s = read([podObj('w', 'default', '10.0.0.2', { app: 'web' }, web), podObj('bare', 'default', '10.0.0.3', {}), nsObj('e1-dev', { stack: 'e1-dev' })]);
    expect(byName(s.pods, 'w').containerPorts).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }, { name: 'dns', port: 5353, protocol: 'UDP' }, { name: 'metrics', port: 9100, protocol: 'TCP' }]);
    expect(byName(s.pods, 'bare').containerPorts).toBeUndefined();
    expect(s.namespaces.map((n) => [n.name, n.labels.stack])).toEqual([['e1-dev', 'e1-dev']]);
  });
  it('a container port of the wrong type makes the pod malformed, named at its line; the rest loads', () => {
    const r = parseKubectlJson(list([podObj('bad', 'default', '10.0.0.2', {}, [{ ports: [{ containerPort: 'x' }] }]), podObj('ok', 'default', '10.0.0.3', {}, [])]), 'k.json');
    expect(r.issues.map((i) => i.message)).toEqual([expect.stringMatching(/^Pod default\/bad is malformed.*containerPort/)]);
    expect(r.value.pods.map((p) => p.name)).toEqual(['ok']);
  });
});

describe('named ports', () => {
  const s = read([podObj('w', 'default', '10.0.0.2', { app: 'web' }, web), podObj('c', 'default', '10.0.0.3', { app: 'web' }, [{ name: 'c' }]), podObj('old', 'default', '10.0.0.4', {}), namedPolicy('http')]);
  const [pol] = s.networkPolicies as [K8sNetworkPolicy];
  const w = byName(s.pods, 'w');
  const c = byName(s.pods, 'c');
  it('ingress: resolved on the pod itself — its http port (8080/TCP) only', () => {
    expect(policyIntent([pol], w, { ip: '10.9.9.9' }, 'ingress', 'TCP', 8080)).toMatchObject({ allowed: true });
    expect(policyIntent([pol], w, { ip: '10.9.9.9' }, 'ingress', 'TCP', 80).allowed).toBe(false);
    expect(policyIntent([pol], w, { ip: '10.9.9.9' }, 'ingress', 'UDP', 8080).allowed).toBe(false);
  });
  it('a pod whose containers declare no such name: matches nothing (a decided deny, not "unknown")', () => {
    const v = policyIntent([pol], c, { ip: '10.9.9.9' }, 'ingress', 'TCP', 8080);
    expect(v).toMatchObject({ allowed: false });
    expect(v.unknown).toBeUndefined();
  });
  it('egress: resolved on the destination pod; an address no pod holds matches nothing', () => {
    expect(policyIntent([pol], c, { ip: w.ips[0]!, pod: w }, 'egress', 'TCP', 8080).allowed).toBe(true);
    expect(policyIntent([pol], w, { ip: c.ips[0]!, pod: c }, 'egress', 'TCP', 8080).allowed).toBe(false);
    expect(policyIntent([pol], w, { ip: '192.0.2.1' }, 'egress', 'TCP', 8080)).toMatchObject({ allowed: false });
  });
  it('a destination the snapshot holds without spec.containers: insufficient information, said', () => {
    const old = byName(s.pods, 'old');
    expect(policyIntent([pol], w, { ip: old.ips[0]!, pod: old }, 'egress', 'TCP', 8080).unknown).toMatch(/spec\.containers.*"http".*default\/old/);
  });
  it('property: a named port allows exactly the numbers the destination declares under that name and protocol', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 65535 }), fc.constantFrom('TCP', 'UDP'), fc.constantFrom('http', 'dns', 'metrics', 'nope'), (port, proto, name) => {
      const p = read([podObj('w', 'default', '10.0.0.2', { app: 'web' }, web), namedPolicy(name, proto)]).networkPolicies[0]!;
      const declared = (w.containerPorts ?? []).some((x) => x.name === name && x.protocol === proto && x.port === port);
      expect(policyIntent([p], w, { ip: '10.9.9.9' }, 'ingress', proto, port).allowed).toBe(declared);
    }), { numRuns: 200 });
  });
});

describe('namespaceSelector on namespace labels (projectcalico/calico#4936)', () => {
  const pods = [podObj('a', 'e1-dev', '10.0.1.2', {}), podObj('b', 'e1-dev-2', '10.0.1.3', {}), podObj('x', 'other', '10.0.1.4', {})];
  it('with the namespaces: decided by their labels', () => {
    const s = read([...pods, sameStack, nsObj('e1-dev', { stack: 'e1-dev' }), nsObj('e1-dev-2', { stack: 'e1-dev' }), nsObj('other', {})]);
    const [pol] = s.networkPolicies as [K8sNetworkPolicy];
    const a = byName(s.pods, 'a');
    for (const [n, want] of [['a', true], ['b', true], ['x', false]] as const) {
      const peer = byName(s.pods, n);
      const v = policyIntent([pol], a, { ip: peer.ips[0]!, pod: peer }, 'ingress', 'TCP', 80, s.namespaces);
      expect([n, v.allowed, v.unknown]).toEqual([n, want, undefined]);
    }
  });
  it('without the namespaces: insufficient information: needs namespaces — never a guess', () => {
    const s = read([...pods, sameStack]);
    const [pol] = s.networkPolicies as [K8sNetworkPolicy];
    const v = policyIntent([pol], byName(s.pods, 'a'), { ip: '10.0.1.3', pod: byName(s.pods, 'b') }, 'ingress', 'TCP', 80, s.namespaces);
    expect(v.unknown).toMatch(/^namespaces \(kubectl get namespaces -o json\): the label "stack" of namespace e1-dev-2/);
  });
  it('a namespace missing from the list is unknown; the name label is always known', () => {
    const s = read([...pods, sameStack, nsObj('e1-dev', { stack: 'e1-dev' })]);
    const [pol] = s.networkPolicies as [K8sNetworkPolicy];
    expect(policyIntent([pol], byName(s.pods, 'a'), { ip: '10.0.1.3', pod: byName(s.pods, 'b') }, 'ingress', 'TCP', 80, s.namespaces).unknown).toMatch(/namespace e1-dev-2/);
    const byNameSel = { ...pol, ingress: [{ action: 'Allow' as const, ports: [], peers: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'other' }, matchExpressions: [] } }] }] };
    const x = byName(s.pods, 'x');
    expect(policyIntent([byNameSel], byName(s.pods, 'a'), { ip: x.ips[0]!, pod: x }, 'ingress', 'TCP', 80, [])).toMatchObject({ allowed: true });
  });
});
