// With a kubectl snapshot beside the bundle, pods and services carry their Kubernetes names in the
// inventory, search, inspector, topology and packet walks (issue: "name pods and services everywhere").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { buildInventory } from '../../../analysis/view-models/inventory.ts';
import { buildSearchIndex, searchObjects } from '../../../analysis/view-models/search.ts';
import { buildInspector } from '../../../analysis/view-models/inspector.ts';
import { buildTopology } from '../../../analysis/topology.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';

let dir: string;
let m: NodeModel;
let pod: { ip: string; id: string };
let lb: { id: string; vip: string };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-k8s-'));
  await cp(path.resolve('assets/demo/l2bridge-node'), dir, { recursive: true });
  const base = await loadBundle(dir);
  const ep = base.endpoints!.find((e) => !e.isRemote && e.name !== 'cbr0_ep' && e.ip)!;
  const dns = base.loadBalancers!.find((l) => l.vips[0] === '10.96.0.10')!;
  pod = { ip: ep.ip!, id: ep.id };
  lb = { id: dns.id, vip: dns.vips[0] };
  const list = {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-7f9c-abcde', namespace: 'shop' }, spec: { nodeName: 'win-1' }, status: { phase: 'Running', podIP: pod.ip, podIPs: [{ ip: pod.ip }] } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'kube-dns', namespace: 'kube-system' }, spec: { type: 'ClusterIP', clusterIP: lb.vip, clusterIPs: [lb.vip], ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }] } },
    ],
  };
  await writeFile(path.join(dir, 'kubectl-get-pods-svc.json'), JSON.stringify(list, null, 2));
  m = await loadBundle(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Kubernetes names from a kubectl snapshot', () => {
  it('inventory: a Pod column and a Service column', () => {
    const inv = buildInventory(m);
    const eps = inv.find((t) => t.key === 'endpoints')!;
    expect(eps.columns.map((c) => c.key)).toContain('pod');
    expect(eps.rows.find((r) => r.cells.ip === pod.ip)?.cells.pod).toBe('shop/web-7f9c-abcde');
    const svcs = inv.find((t) => t.key === 'services')!;
    expect(svcs.rows.find((r) => r.cells.vip === '10.96.0.10:53/UDP')?.cells.service).toBe('kube-system/kube-dns');
  });

  it('search finds a pod and a service by name', () => {
    const idx = buildSearchIndex(m);
    expect(searchObjects(idx, 'web-7f9c')[0].ref).toEqual({ type: 'endpoint', id: pod.id });
    expect(searchObjects(idx, 'kube-dns')[0].ref.type).toBe('loadbalancer');
  });

  it('inspector and topology name them', () => {
    expect(buildInspector(m, { type: 'endpoint', id: pod.id })!.fields.find((f) => f.label === 'Kubernetes pod')?.value).toBe('shop/web-7f9c-abcde');
    expect(buildInspector(m, { type: 'loadbalancer', id: lb.id })!.fields.find((f) => f.label === 'Kubernetes service')?.value).toMatch(/^kube-system\/kube-dns \(ClusterIP, 53\/(UDP|TCP)\)$/);
    const g = buildTopology(m);
    expect(g.nodes.find((n) => n.id === `endpoint:${pod.id}`)?.details[0]).toBe('shop/web-7f9c-abcde');
  });

  it('a packet walk names the source pod', () => {
    const t = walkFlow(m, { srcIp: pod.ip, dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' });
    expect(t.hops[0].at).toContain('shop/web-7f9c-abcde');
  });

  it('nothing changes without a snapshot', async () => {
    const plain = await loadBundle(path.resolve('assets/demo/l2bridge-node'));
    expect(buildInventory(plain).find((t) => t.key === 'endpoints')!.columns.map((c) => c.key)).not.toContain('pod');
  });
});
