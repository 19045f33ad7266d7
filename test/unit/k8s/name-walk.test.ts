// Issue #23 point 6: a walk to a pod of another node (a Linux pod only the kubectl snapshot knows)
// names it, and so every address the snapshot knows: pods of any node, Services, Nodes' addresses and
// their spec.podCIDRs. The names are joined after the walk (analysis/k8s/name-walk.ts).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../../../services/bundle/load.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { formatWalk } from '../../../analysis/walk/format.ts';
import { nameAddressesIn, withNames } from '../../../analysis/k8s/name-walk.ts';
import { k8sNames } from '../../../analysis/k8s/index.ts';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');

// A snapshot of the cluster of test/fixtures/foreign/ws2022-overlay-2024 (node k8s-win22-02, 10.0.1.5,
// pod CIDR 10.244.2.0/24; its RemoteSubnetRoutes send 10.244.0.0/24 to 10.0.1.4 and 10.244.1.0/24 to 10.0.1.6).
const node = (name: string, ip: string, cidr: string, os_: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/os': os_ } }, spec: { podCIDR: cidr, podCIDRs: [cidr] }, status: { addresses: [{ type: 'InternalIP', address: ip }, { type: 'Hostname', address: name }] } });
const pod = (namespace: string, name: string, nodeName: string, ip: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name }, spec: { nodeName, containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Running', podIP: ip, podIPs: [{ ip }] } });
const snapshot = {
  apiVersion: 'v1',
  kind: 'List',
  items: [
    node('k8s-win22-02', '10.0.1.5', '10.244.2.0/24', 'windows'),
    node('k8s-cp-01', '10.0.1.4', '10.244.0.0/24', 'linux'),
    node('k8s-linux-01', '10.0.1.6', '10.244.1.0/24', 'linux'),
    pod('default', 'web-7d9f8-abcde', 'k8s-win22-02', '10.244.2.4'),
    pod('shop', 'orders-db-0', 'k8s-linux-01', '10.244.1.22'),
    { apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'kube-system', name: 'kube-dns' }, spec: { type: 'ClusterIP', clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ port: 53, protocol: 'UDP' }] } },
  ],
};

async function overlayWithSnapshot() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-names-'));
  cpSync(path.join(fixtures, 'foreign/ws2022-overlay-2024'), dir, { recursive: true });
  writeFileSync(path.join(dir, 'kubectl-get-all.json'), JSON.stringify(snapshot, null, 2));
  try {
    return await loadBundle(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a walk to a pod of another node', () => {
  it('names the Linux pod, the node its VXLAN goes to, in the verdict, the hop notes and the text', async () => {
    const m = await overlayWithSnapshot();
    const w = withNames(m, walkFlow(m, { srcIp: '10.244.2.4', dstIp: '10.244.1.22', dstPort: 5432, proto: 'tcp' }));
    expect(w.verdict).toBe('forwarded');
    expect(w.names).toMatchObject({ '10.244.1.22': 'shop/orders-db-0, pod on node k8s-linux-01', '10.0.1.6': 'node k8s-linux-01', '10.244.2.4': 'default/web-7d9f8-abcde' });
    expect(w.reason).toContain('10.0.1.6 (node k8s-linux-01)');
    expect(w.hops.some((h) => h.note?.includes('10.244.1.22 (shop/orders-db-0, pod on node k8s-linux-01)'))).toBe(true);
    const text = formatWalk(w);
    expect(text).toMatch(/^names: {3}.*\n(?: {9}.*\n)*/m);
    expect(text).toContain('10.244.1.22  shop/orders-db-0, pod on node k8s-linux-01');
  });
  it('an address in a node\'s pod CIDR that no pod holds says whose range it is', async () => {
    const m = await overlayWithSnapshot();
    expect(k8sNames(m).addressLabel('10.244.1.200')).toBe('in the pod CIDR of node k8s-linux-01');
    expect(k8sNames(m).cidrLabel('10.244.1.0/24')).toBe('pod CIDR of node k8s-linux-01');
    const w = withNames(m, walkFlow(m, { srcIp: '10.244.2.4', dstIp: '10.244.1.200', dstPort: 80, proto: 'tcp' }));
    expect(w.names?.['10.244.1.200']).toBe('in the pod CIDR of node k8s-linux-01');
  });
  it('without a snapshot the walk is left as it is', async () => {
    const m = await loadBundle(path.join(fixtures, 'foreign/ws2022-overlay-2024'));
    const w = walkFlow(m, { srcIp: '10.244.2.4', dstIp: '10.244.1.22', dstPort: 5432, proto: 'tcp' });
    expect(withNames(m, w)).toBe(w);
  });
});

describe('the kubectl snapshot of test/fixtures/k8s alone', () => {
  const m = assembleModel([parseBundleFile('kubectl.json', readFileSync(path.join(fixtures, 'k8s/kubectl-pods-svc-eps.json')))], { location: 'mem', kind: 'folder', root: '' });
  it('names a pod with its node (this bundle is no node of it), a Service, and nothing else', () => {
    const n = k8sNames(m);
    expect(n.addressLabel('10.244.19.32')).toBe('default/win-webserver-6b8f4c9d7-x2x8q, pod on node win-24elfep18d9');
    expect(n.addressLabel('10.96.0.10')).toBe('Service kube-system/kube-dns');
    // The hostNetwork pod's IP is the node's, not a pod's.
    expect(n.addressLabel('10.127.130.38') ?? '').not.toMatch(/kube-proxy/);
    expect(n.addressLabel('192.0.2.1')).toBeUndefined();
  });
});

describe('names in text', () => {
  const label = (ip: string, prefix?: string) => (prefix ? (prefix === '10.244.1.0/24' ? 'pod CIDR of node b' : undefined) : ip.startsWith('10.') ? `n-${ip}` : undefined);
  it('names the first mention only, after a port, never inside a rule name or a range, never twice', () => {
    expect(nameAddressesIn('to 10.0.1.6 then 10.0.1.6:80, REMOTESUBNETROUTE_10.0.1.7_00, 10.0.0.0-10.0.0.9, 10.0.1.8 (already), 10.244.1.0/24.', label)).toBe(
      'to 10.0.1.6 (n-10.0.1.6) then 10.0.1.6:80, REMOTESUBNETROUTE_10.0.1.7_00, 10.0.0.0-10.0.0.9, 10.0.1.8 (already), 10.244.1.0/24 (pod CIDR of node b).',
    );
  });
  it('property: text without a named address is unchanged, and naming twice is naming once', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const ip = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));
    const piece = fc.oneof(ip, fc.constantFrom(' ', ', ', ':443', '/24', '_', '-', ' (x)', 'RULE_', ' → '), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }).map((a) => a.join('')), (t) => {
        expect(nameAddressesIn(t, () => undefined)).toBe(t);
        const once = nameAddressesIn(t, label);
        expect(nameAddressesIn(once, label)).toBe(once);
      }),
      { numRuns: 400 },
    );
  });
});
