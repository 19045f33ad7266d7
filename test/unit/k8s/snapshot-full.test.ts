// The kubectl snapshot read fully (issue #26 part 1): NetworkPolicies (Kubernetes and Calico), traffic
// policies, readiness, Node heartbeats; a malformed object is an issue at its line and the rest loads;
// the snapshot's and the bundle's moments.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseKubectlJson } from '../../../parsers/k8s/index.ts';
import { bundleMoment, skewNote, snapshotMoment } from '../../../analysis/k8s/index.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

const list = (items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2);
const pod = (name: string, ip: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'web' }, creationTimestamp: '2026-01-05T09:00:00Z' }, spec: { nodeName: 'win-1' }, status: { phase: 'Running', podIP: ip, podIPs: [{ ip }] }, ...extra });

// The policy of the Kubernetes documentation's NetworkPolicy page ("The NetworkPolicy resource"),
// kubernetes/website content/en/examples/service/networking/networkpolicy.yaml.
const docPolicy = {
  apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'test-network-policy', namespace: 'default' },
  spec: {
    podSelector: { matchLabels: { role: 'db' } }, policyTypes: ['Ingress', 'Egress'],
    ingress: [{ from: [{ ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } }, { namespaceSelector: { matchLabels: { project: 'myproject' } } }, { podSelector: { matchLabels: { role: 'frontend' } } }], ports: [{ protocol: 'TCP', port: 6379 }] }],
    egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/24' } }], ports: [{ protocol: 'TCP', port: 32000, endPort: 32768 }] }],
  },
};
// Calico's policy tutorial (projectcalico/calico calico/network-policy/get-started/calico-policy): v3 NetworkPolicy.
const calicoPolicy = {
  apiVersion: 'projectcalico.org/v3', kind: 'NetworkPolicy', metadata: { name: 'allow-tcp-6379', namespace: 'production' },
  spec: { selector: "role == 'database'", types: ['Ingress', 'Egress'], order: 100, ingress: [{ action: 'Allow', protocol: 'TCP', source: { selector: "role == 'frontend'" }, destination: { ports: [6379, '7000:7010'] } }], egress: [{ action: 'Allow' }] },
};
const globalDeny = { apiVersion: 'projectcalico.org/v3', kind: 'GlobalNetworkPolicy', metadata: { name: 'default-deny' }, spec: { selector: 'projectcalico.org/namespace not in {"kube-system"}', types: ['Ingress', 'Egress'] } };

describe('NetworkPolicies in the snapshot', () => {
  it('reads a Kubernetes NetworkPolicy: selectors, ipBlock with except, ports with endPort, policyTypes', () => {
    const r = parseKubectlJson(list([docPolicy]), 'k.json');
    expect(r.issues).toEqual([]);
    const [p] = r.value.networkPolicies;
    expect(p).toMatchObject({ flavour: 'kubernetes', namespace: 'default', name: 'test-network-policy', policyTypes: ['Ingress', 'Egress'], podSelector: { matchLabels: { role: 'db' } } });
    expect(p.ingress[0].peers.map((x) => x.ipBlock ?? x.namespaceSelector?.matchLabels ?? x.podSelector?.matchLabels)).toEqual([{ cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] }, { project: 'myproject' }, { role: 'frontend' }]);
    expect(p.egress[0].ports).toEqual([{ protocol: 'TCP', port: 32000, endPort: 32768 }]);
    expect(p.src.line).toBe(5);
  });
  it('policyTypes defaults as the API does: Ingress, plus Egress when there are egress rules', () => {
    const noTypes = (spec: Record<string, unknown>) => parseKubectlJson(list([{ ...docPolicy, spec: { podSelector: {}, ...spec } }]), 'k.json').value.networkPolicies[0].policyTypes;
    expect(noTypes({})).toEqual(['Ingress']);
    expect(noTypes({ egress: [{}] })).toEqual(['Ingress', 'Egress']);
  });
  it('reads Calico NetworkPolicy and GlobalNetworkPolicy with actions, selectors and port ranges', () => {
    const r = parseKubectlJson(list([calicoPolicy, globalDeny]), 'k.json');
    expect(r.issues).toEqual([]);
    const [c, g] = r.value.networkPolicies;
    expect(c).toMatchObject({ flavour: 'calico', namespace: 'production', calicoSelector: "role == 'database'", order: 100 });
    expect(c.ingress[0]).toMatchObject({ action: 'Allow', peers: [{ calicoSelector: "role == 'frontend'", calicoNamespaceSelector: undefined, nets: [], notNets: [] }], ports: [{ protocol: 'TCP', port: 6379 }, { protocol: 'TCP', port: 7000, endPort: 7010 }] });
    expect(c.ingress[0]!.calico).toMatchObject({ protocol: 'TCP', source: { selector: "role == 'frontend'", nets: [] }, destination: { ports: [{ protocol: 'TCP', port: 6379 }, { protocol: 'TCP', port: 7000, endPort: 7010 }] } });
    expect(g).toMatchObject({ flavour: 'calico-global', namespace: undefined, name: 'default-deny', ingress: [], egress: [] });
  });
  it('a file holding only NetworkPolicies is recognised as kubectl JSON', async () => {
    const { looksLikeKubectl } = await import('../../../parsers/k8s/index.ts');
    expect(looksLikeKubectl(JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicyList', items: [] }))).toBe(true);
  });
});

describe('the rest of the intent', () => {
  it('reads internalTrafficPolicy, slice serving/terminating, Node heartbeat and Ready', () => {
    const r = parseKubectlJson(list([
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { clusterIP: '10.96.0.5', ports: [{ port: 80 }], externalTrafficPolicy: 'Local', internalTrafficPolicy: 'Local' } },
      { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's-1', namespace: 'default', labels: { 'kubernetes.io/service-name': 's' } }, addressType: 'IPv4', endpoints: [{ addresses: ['10.244.1.5'], conditions: { ready: false, serving: true, terminating: true } }] },
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'win-1' }, status: { addresses: [{ type: 'InternalIP', address: '10.0.0.4' }], conditions: [{ type: 'MemoryPressure', status: 'False', lastHeartbeatTime: '2026-01-05T10:01:00Z' }, { type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-05T10:03:00Z' }] } },
    ]), 'k.json');
    expect(r.value.services[0]).toMatchObject({ externalTrafficPolicy: 'Local', internalTrafficPolicy: 'Local' });
    expect(r.value.endpointSlices[0].endpoints[0]).toMatchObject({ ready: false, serving: true, terminating: true });
    expect(r.value.nodes[0]).toMatchObject({ heartbeat: '2026-01-05T10:03:00Z', ready: true });
  });
});

describe('a malformed object', () => {
  const bad = [pod('good-1', '10.244.1.5'), pod('bad', '10.244.1.6', { status: { phase: 'Running', podIPs: [{ ip: 42 }] } }), { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', namespace: 'default' }, spec: { ports: [{ port: '80' }] } }, pod('good-2', '10.244.1.7')];
  it('is an issue naming it at its line; the others load', () => {
    const text = list(bad);
    const r = parseKubectlJson(text, 'k.json');
    expect(r.value.pods.map((p) => p.name)).toEqual(['good-1', 'good-2']);
    expect(r.value.services).toEqual([]);
    const lines = text.split('\n');
    expect(r.issues.map((i) => [i.severity, i.message.split(':')[0]])).toEqual([['warning', 'Pod default/bad is malformed and was skipped'], ['warning', 'Service default/svc is malformed and was skipped']]);
    expect(r.issues[0].message).toContain('status.podIPs.0.ip');
    expect(r.issues[1].message).toContain('spec.ports.0.port');
    // The line is the object's own opening brace.
    for (const i of r.issues) expect(lines[i.line - 1].trim()).toBe('{');
    expect(lines.slice(r.issues[0].line, r.issues[0].line + 4).join('\n')).toContain('"bad"');
  });
  it('property: one object mangled at any field never stops the others from loading', () => {
    fc.assert(fc.property(fc.constantFrom('metadata', 'spec', 'status'), fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.array(fc.integer())), (field, junk) => {
      const items = [pod('a', '10.244.1.5'), { ...pod('m', '10.244.1.6'), [field]: junk }, pod('z', '10.244.1.7')];
      const r = parseKubectlJson(list(items), 'k.json');
      expect(r.value.pods.map((p) => p.name)).toEqual(expect.arrayContaining(['a', 'z']));
      if (!r.value.pods.some((p) => p.name === 'm')) expect(r.issues.some((i) => /^Pod (default\/m|\(no name\)) is malformed/.test(i.message))).toBe(true);
    }), { numRuns: 100 });
  });
});

describe('when the snapshot and the bundle were taken', () => {
  const model = (items: unknown[], files: string[] = []): NodeModel => ({ k8s: parseKubectlJson(list(items), 'k.json').value, files: files.map((name) => ({ name })), logs: [] } as unknown as NodeModel);
  const node = (beat: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'win-1' }, status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: beat }] } });
  it('the snapshot is dated by its newest Node heartbeat, else bounded below by its newest creation time', () => {
    expect(snapshotMoment(model([node('2026-01-05T10:00:00Z'), node('2026-01-05T10:03:00Z'), pod('p', '10.244.1.5')]))).toMatchObject({ at: Date.parse('2026-01-05T10:03:00Z'), hi: Date.parse('2026-01-05T10:09:00Z') });
    expect(snapshotMoment(model([pod('p', '10.244.1.5')]))).toMatchObject({ at: Date.parse('2026-01-05T09:00:00Z'), hi: Infinity });
    expect(snapshotMoment(model([{ ...pod('p', '10.244.1.5'), metadata: { name: 'p' } }]))).toBeUndefined();
  });
  it("the bundle is dated by AKS's file name stamp", () => {
    expect(bundleMoment(model([], ['20260105-111500_services.csv']))?.at).toBe(Date.UTC(2026, 0, 5, 11, 15, 0));
    expect(bundleMoment(model([], ['services.csv']))).toBeUndefined();
  });
  it('a snapshot an hour before the bundle hedges; one of the same moment says "per the snapshot of"', () => {
    const m1 = model([node('2026-01-05T10:03:00Z')], ['20260105-111500-hnsdiag-list.txt']);
    const far = skewNote({ kubectlMoment: snapshotMoment(m1), bundleMoment: bundleMoment(m1) });
    expect(far.hedge).toBe(true);
    expect(far.text).toContain('2026-01-05 10:03:00 UTC');
    const m2 = model([node('2026-01-05T11:13:00Z')], ['20260105-111500-hnsdiag-list.txt']);
    const near = skewNote({ kubectlMoment: snapshotMoment(m2), bundleMoment: bundleMoment(m2) });
    expect(near.hedge).toBe(false);
    expect(near.text).toMatch(/^Per the snapshot of about 2026-01-05 11:13:00 UTC/);
  });
});
