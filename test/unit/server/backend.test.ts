// The backend answers the contract from a loaded bundle: summary, topology, inventory, search,
// inspector (with the port's VFP rules and their lines) and excerpts of the evidence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Backend } from '../../../services/backend/backend.ts';
import type { BundleSummary, InspectorView, InventoryTable, SearchHit, TopologyGraph, FileExcerpt } from '../../../analysis/view-models/types.ts';
import type { LoadJob } from '../../../contract/index.ts';
import type { FindingView } from '../../../analysis/findings/types.ts';
import type { WalkResult } from '../../../analysis/walk/types.ts';
import type { WalkPreset } from '../../../analysis/walk/presets.ts';

let dir: string;
let backend: Backend;
let summary: BundleSummary;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-be-'));
  backend = new Backend({ mode: 'browser', dataDir: dir });
  const { jobId } = (await backend.invoke('openDemo', { name: 'l2bridge-node' })) as { jobId: string };
  const job = await backend.waitForLoad(jobId);
  expect(job.state).toBe('done');
  summary = job.summary!;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Backend on the l2bridge demo', () => {
  it('summarises the node', () => {
    expect(summary.hostName).toBeTruthy();
    expect(summary.schemaVersion).toBe(2);
    expect(summary.vfpGeneration).toBe('get-rule-counter');
    expect(summary.networkTypes).toContain('l2bridge');
    expect(summary.filesBroken).toBe(0);
    expect(summary.counts.vfpRules).toBeGreaterThan(100);
  });

  it('gives a topology whose edges reference existing nodes', async () => {
    const g = (await backend.invoke('getTopology', { bundleId: summary.id })) as TopologyGraph;
    const ids = new Set(g.nodes.map((n) => n.id));
    expect(g.nodes.some((n) => n.kind === 'endpoint')).toBe(true);
    for (const e of g.edges) {
      expect(ids.has(e.source), e.id).toBe(true);
      expect(ids.has(e.target), e.id).toBe(true);
    }
  });

  it('lists endpoints and services in the inventory', async () => {
    const tables = (await backend.invoke('getInventory', { bundleId: summary.id })) as InventoryTable[];
    const eps = tables.find((t) => t.key === 'endpoints')!;
    expect(eps.rows.length).toBe(summary.counts.endpoints);
    const svc = tables.find((t) => t.key === 'services')!;
    expect(svc.rows.some((r) => /^10\.96\.0\.10:53\/UDP$/.test(r.cells.vip))).toBe(true);
  });

  it('finds a pod by IP and opens its inspector with the VFP rules of its port, each with a real line', async () => {
    const tables = (await backend.invoke('getInventory', { bundleId: summary.id })) as InventoryTable[];
    const pod = tables.find((t) => t.key === 'endpoints')!.rows.find((r) => r.cells.where === 'local' && r.cells.port && r.cells.compartment !== '1')!;
    const hits = (await backend.invoke('search', { bundleId: summary.id, query: pod.cells.ip })) as SearchHit[];
    expect(hits[0].ref).toEqual({ type: 'endpoint', id: pod.ref.id });
    const view = (await backend.invoke('inspect', { bundleId: summary.id, ref: hits[0].ref })) as InspectorView;
    expect(view.title).toBe(pod.cells.ip);
    expect(view.policy?.layers.length).toBeGreaterThan(0);
    const rules = view.policy!.layers.flatMap((l) => l.groups.flatMap((g) => g.rules));
    expect(rules.length).toBe(view.policy!.ruleCount);
    const lb = rules.find((r) => r.type === 'lbnat')!;
    expect(lb.src.file).toBe('vfpOutput.txt');
    const ex = (await backend.invoke('getExcerpt', { bundleId: summary.id, file: lb.src.file, line: lb.src.line, context: 2 })) as FileExcerpt;
    expect(ex.lines[ex.focus - ex.start]).toMatch(/^\s*RULE\s*:/);
  });

  it('finds the demo’s two faults, and a walk from each finding shows it on its verdict', async () => {
    const fs = (await backend.invoke('getFindings', { bundleId: summary.id })) as FindingView[];
    const errors = fs.filter((f) => f.severity === 'error');
    expect(errors.map((f) => f.id).sort()).toEqual(['endpoint-without-vnic', 'outboundnat-exception-typo']);
    for (const f of errors) {
      expect(f.trace, f.id).toBeDefined();
      // "Walk this packet": the walk handler joins the walk with the findings on its path.
      const r = (await backend.invoke('walk', { bundleId: summary.id, ...f.trace! })) as WalkResult;
      const on = r.findings!.find((x) => x.key === f.key)!;
      expect(on, f.id).toBeDefined();
      expect(r.hops[on.hop!]).toBeDefined();
      expect(r.verdictCaveat?.severity).toBe('error');
      expect(r.verdictCaveat!.text).toContain(f.title.slice(1));
    }
    // The typo's hop says why its rule matched: the range the /0 entry became.
    const typo = errors.find((f) => f.id === 'outboundnat-exception-typo')!;
    const r = (await backend.invoke('walk', { bundleId: summary.id, ...typo.trace! })) as WalkResult;
    const hop = r.hops[r.findings!.find((x) => x.key === typo.key)!.hop!];
    expect(hop.matchedBecause).toEqual([{ field: 'destination IP', value: typo.trace!.dstIp, condition: '0.0.0.0-255.255.255.255', result: 'match' }]);
  });

  it('offers presets from a healthy pod, each saying why', async () => {
    const ps = (await backend.invoke('walkPresets', { bundleId: summary.id })) as WalkPreset[];
    const fs = (await backend.invoke('getFindings', { bundleId: summary.id })) as FindingView[];
    const noVnic = fs.find((f) => f.id === 'endpoint-without-vnic')!;
    expect(ps.length).toBeGreaterThan(4);
    for (const p of ps) {
      expect(p.why.length).toBeGreaterThan(20);
      expect(noVnic.objects).not.toContain(p.flow.srcIp);
    }
  });

  it('finds VFP rules by a name fragment in the dump bytes', async () => {
    const hits = (await backend.invoke('search', { bundleId: summary.id, query: 'LB_DSR' })) as SearchHit[];
    const ruleHits = hits.filter((h) => h.rule);
    expect(ruleHits.length).toBeGreaterThan(0);
    expect(ruleHits[0].text).toMatch(/LB_DSR/);
    expect(ruleHits[0].ref.type).toBe('port');
    // the hit names the rule's line, so the inspector can jump to it
    const ex = (await backend.invoke('getExcerpt', { bundleId: summary.id, file: 'vfpOutput.txt', line: ruleHits[0].rule!.line, context: 0 })) as FileExcerpt;
    expect(ex.lines[0]).toMatch(/^\s*RULE\s*:\s*LB_DSR/);
  });

  it('gives excerpts of text files in their original encoding', async () => {
    const ex = (await backend.invoke('getExcerpt', { bundleId: summary.id, file: 'endpoint.txt', line: 3, context: 1 })) as FileExcerpt;
    expect(ex.lines.length).toBe(3);
    expect(ex.totalLines).toBeGreaterThan(10);
  });

  it('says clearly when an object or bundle does not exist', async () => {
    await expect(backend.invoke('inspect', { bundleId: summary.id, ref: { type: 'endpoint', id: 'nope' } })).rejects.toThrow(/nothing in this bundle is endpoint nope/);
    // Words a customer reads: no internal bundle id.
    const closed = backend.invoke('getTopology', { bundleId: 'b999' });
    await expect(closed).rejects.toThrow(/no longer open in hnsight/);
    await expect(closed).rejects.not.toThrow(/b999/);
  });

  it('walks the reply only when asked, as a walk of its own', async () => {
    const flow = { bundleId: summary.id, srcIp: '10.244.32.3', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' as const };
    const plain = (await backend.invoke('walk', flow)) as WalkResult;
    expect(plain.reply).toBeUndefined();
    const both = (await backend.invoke('walk', { ...flow, reply: true })) as WalkResult;
    expect(both.hops.length).toBe(plain.hops.length);
    expect(both.reply?.kind).toBe('reply');
    // The answer starts where the request ended and goes back to the pod.
    expect(both.reply!.flow.dstIp).toBe('10.244.32.3');
    expect(both.reply!.hops.length).toBeGreaterThan(0);
  });

  it('remembers opened paths (not demos) in the recent list, newest first', async () => {
    const demo = path.resolve('assets/demo/overlay-node');
    // The user chose it (what the desktop shell does with a path the OS hands it).
    backend.allowOpen(demo);
    const { jobId } = (await backend.invoke('openBundle', { path: demo })) as { jobId: string };
    const job: LoadJob = await backend.waitForLoad(jobId);
    expect(job.state).toBe('done');
    const recent = (await backend.invoke('listRecent', {})) as { path: string }[];
    expect(recent[0].path).toBe(demo);
  });

  it('cancels a load', async () => {
    const { jobId } = (await backend.invoke('openBundle', { path: path.resolve('assets/demo/l2bridge-node') })) as { jobId: string };
    await backend.invoke('cancelLoad', { jobId });
    const job = await backend.waitForLoad(jobId);
    expect(['cancelled', 'done']).toContain(job.state);
  });
});
