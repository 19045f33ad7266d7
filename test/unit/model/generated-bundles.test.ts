// Every variant of a generated bundle must load to the generator's ground truth: counts, endpoint
// joins to VFP ports and compartments, load balancer references. The ground truth comes from the
// generator's objects, not from re-parsing its text.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildNode, writeBundle, type NodeSpec, type WriteOptions } from '../../../tools/gen/index.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { countObjects } from '../../../analysis/inspect.ts';

const temps: string[] = [];
afterAll(async () => {
  for (const t of temps) await rm(t, { recursive: true, force: true });
});

const BASE: NodeSpec = { seed: 11, hostName: 'win-node-a', network: 'l2bridge', schema: 2, pods: 6, services: 9, remoteNodes: 2, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340' };

const VARIANTS: [string, Partial<NodeSpec>, WriteOptions][] = [
  ['l2bridge v2 get-rule-counter utf16 crlf folder', {}, {}],
  ['l2bridge v1 list-rule utf16 crlf folder (2019 build)', { schema: 1, vfpGeneration: 'list-rule', windowsBuild: '10.0.17763.5830' }, {}],
  ['overlay v2 get-rule-counter utf8 lf folder', { network: 'overlay' }, { encoding: 'utf8', eol: 'lf' }],
  ['overlay v1 list-rule utf8-bom crlf folder', { network: 'overlay', schema: 1, vfpGeneration: 'list-rule', windowsBuild: '10.0.17763.5830' }, { encoding: 'utf8-bom' }],
  ['l2bridge v2 AKS flat zip', { seed: 12 }, { zip: 'flat' }],
  ['overlay v1 zip with a top folder', { network: 'overlay', schema: 1, vfpGeneration: 'list-rule', windowsBuild: '10.0.17763.5830' }, { zip: 'top-folder' }],
  ['single pod, no services', { pods: 1, services: 0, remoteNodes: 0 }, {}],
];

describe.each(VARIANTS)('%s', (_name, over, opts) => {
  const spec = { ...BASE, ...over };
  const node = buildNode(spec);
  const load = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hnsight-gb-'));
    temps.push(dir);
    const w = await writeBundle(node, dir, opts);
    return loadBundle(w.path);
  };
  let modelP: ReturnType<typeof load> | undefined;
  const model = () => (modelP ??= load());

  it('gives the ground-truth counts', async () => {
    expect(countObjects(await model())).toEqual(node.expected.counts);
  });

  it('reads every model file without errors', async () => {
    const m = await model();
    const errors = m.files.flatMap((f) => f.issues.filter((i) => i.severity === 'error').map((i) => `${f.name}:${i.line} ${i.message}`));
    expect(errors).toEqual([]);
    for (const k of ['network', 'endpoint', 'policy', 'ip', 'routes', 'ports', 'vfp']) expect(m.files.some((f) => f.kind === k && f.used)).toBe(true);
  });

  it('joins every endpoint to its VFP port and compartment', async () => {
    const m = await model();
    for (const e of node.expected.endpoints) {
      const ep = m.endpoints!.find((x) => x.id === e.id.toLowerCase());
      expect(ep, e.id).toBeDefined();
      expect(ep!.ip).toBe(e.ip);
      expect(ep!.isRemote).toBe(e.isRemote);
      const j = m.joins.endpoints.find((x) => x.endpointId === ep!.id)!;
      if (e.portName) expect(j.portKey, `port of ${e.ip}`).toBe(e.portName.toLowerCase());
      if (e.compartmentId !== undefined) expect(j.compartmentId, `compartment of ${e.ip}`).toBe(e.compartmentId);
    }
    expect(m.joins.unmatched).toEqual([]);
  });

  it('resolves every load balancer to its endpoints', async () => {
    const m = await model();
    for (const lb of node.expected.loadBalancers) {
      const got = m.loadBalancers!.find((x) => x.id === lb.id.toLowerCase());
      expect(got, lb.id).toBeDefined();
      expect([...got!.vips].sort()).toEqual([...lb.vips].sort());
      expect([...got!.endpointIds].sort()).toEqual(lb.endpointIds.map((x) => x.toLowerCase()).sort());
      const j = m.joins.loadBalancers.find((x) => x.loadBalancerId === got!.id)!;
      expect(j.dangling).toEqual([]);
    }
  });

  it('names the VFP ports by role and parses a port on demand with true line numbers', async () => {
    const m = await model();
    for (const p of node.expected.vfpPorts) {
      const ref = m.ports!.find((x) => x.key === p.name.toLowerCase());
      expect(ref, p.name).toBeDefined();
      if (p.kind === 'external') expect(ref!.role).toBe('external');
      if (p.kind === 'host') expect(ref!.role).toBe('host-vnic');
      if (p.endpointId) expect(ref!.endpointId).toBe(p.endpointId.toLowerCase());
      expect(ref!.policy?.rules ?? 0).toBe(p.rules);
      expect(ref!.policy?.blocked ?? false).toBe(p.blocked);
    }
    const withRules = node.expected.vfpPorts.find((p) => p.rules > 0)!;
    const pol = m.vfp!.getPolicy(withRules.name)!;
    const rules = pol.layers.flatMap((l) => l.groups.flatMap((g) => g.rules));
    expect(rules.length).toBe(withRules.rules);
    const f = m.vfp!.files[0];
    const lines = new TextDecoder().decode(f.bytes.read(0, f.bytes.size)).split('\n');
    for (const r of rules.slice(0, 20)) expect(lines[r.src.line - 1]).toMatch(/^\s*RULE\s*:/);
  });
});

describe('faulty bundles', () => {
  it('keeps a load balancer pointing at a missing endpoint as a dangling join', async () => {
    const node = buildNode({ ...BASE, faults: ['stale-lb-dip'] });
    const dir = await mkdtemp(path.join(tmpdir(), 'hnsight-gb-'));
    temps.push(dir);
    const m = await loadBundle((await writeBundle(node, dir)).path);
    const fault = node.expected.faults.find((f) => f.name === 'stale-lb-dip')!;
    const dangling = m.joins.loadBalancers.flatMap((j) => j.dangling);
    expect(dangling.length).toBe(1);
    expect(fault.objects.map((o) => o.toLowerCase())).toContain(dangling[0].toLowerCase());
    expect(m.joins.unmatched.some((u) => u.kind === 'lb-endpoint' && u.message.includes(dangling[0]))).toBe(true);
  });

  it('reports an endpoint with no adapter in any compartment', async () => {
    const node = buildNode({ ...BASE, faults: ['endpoint-without-vnic'] });
    const dir = await mkdtemp(path.join(tmpdir(), 'hnsight-gb-'));
    temps.push(dir);
    const m = await loadBundle((await writeBundle(node, dir)).path);
    expect(m.joins.unmatched.filter((u) => u.kind === 'endpoint-adapter').length).toBe(1);
  });
});
