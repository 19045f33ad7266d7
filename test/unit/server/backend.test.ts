// The backend answers the contract from a loaded bundle: summary, topology, inventory, search,
// inspector (with the port's VFP rules and their lines) and excerpts of the evidence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Backend } from '../../../services/backend/backend.ts';
import type { BundleSummary, InspectorView, InventoryTable, SearchHit, TopologyGraph, FileExcerpt } from '../../../analysis/view-models/types.ts';
import type { LoadJob } from '../../../contract/index.ts';

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
    await expect(backend.invoke('getTopology', { bundleId: 'b999' })).rejects.toThrow(/not open/);
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
