// One load per bundle per server, shared by every window; the findings computed once, in the
// background, with progress, without holding up other requests; a failed step says why and runs again
// when asked. Behaviour only: orders and states, never durations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rename, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Backend } from '../../../services/backend/backend.ts';
import { buildNode, writeBundle } from '../../../tools/gen/index.ts';
import type { ApiEvent, BundleStep, LoadJob } from '../../../contract/index.ts';
import type { WalkPreset } from '../../../analysis/walk/presets.ts';
import type { WalkResult } from '../../../analysis/walk/types.ts';

let tmp: string;
let bundle: string;
let backend: Backend;
const events: ApiEvent[] = [];

const open = async (p: string): Promise<LoadJob> => backend.waitForLoad((await backend.invoke('openBundle', { path: p })).jobId);

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'hnsight-once-'));
  // Big enough that the checks take a while (every pod port carries every service's rules).
  const node = buildNode({ seed: 5, hostName: 'win-node-b', network: 'l2bridge', schema: 2, pods: 30, services: 120, remoteNodes: 2, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340' });
  bundle = (await writeBundle(node, path.join(tmp, 'node'))).path;
  // The bundles here are under a folder the user allowed (`hnsight serve --allow`): the capability model lets them open.
  backend = new Backend({ mode: 'browser', dataDir: path.join(tmp, 'data'), allowedRoots: [tmp] });
  backend.onEvent((e) => events.push(e));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('one load per bundle', () => {
  it('two openBundle calls for one path give one load: both jobs end with the same node', async () => {
    const a = await backend.invoke('openBundle', { path: bundle });
    const b = await backend.invoke('openBundle', { path: bundle });
    expect(a.jobId).not.toBe(b.jobId);
    const [ja, jb] = await Promise.all([backend.waitForLoad(a.jobId), backend.waitForLoad(b.jobId)]);
    expect(ja.state).toBe('done');
    expect(jb.summary!.id).toBe(ja.summary!.id);
    // Only one job read files: the follower's progress came from the same load.
    const reading = new Set(events.filter((e) => e.type === 'load' && e.job.progress.phase === 'reading').map((e) => (e.job as LoadJob).progress.file));
    expect(reading.size).toBeGreaterThan(0);
    // Opened again after the load (a reloaded window): the same node, at once.
    const c = await open(bundle);
    expect(c.summary!.id).toBe(ja.summary!.id);
    const listed = await backend.invoke('listOpen', {});
    expect(listed.bundles.filter((x) => x.location === ja.summary!.location).map((x) => x.bundleId)).toEqual([ja.summary!.id]);
  });

  it('a bundle whose files changed is loaded again', async () => {
    const before = await open(bundle);
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(bundle, 'network.txt'), later, later);
    const after = await open(bundle);
    expect(after.state).toBe('done');
    expect(after.summary!.id).not.toBe(before.summary!.id);
  });

  it('cancelling one of two jobs that wait for one load lets the other finish', async () => {
    const copy = path.join(tmp, 'copy-cancel');
    await cp(bundle, copy, { recursive: true });
    const a = await backend.invoke('openBundle', { path: copy });
    const b = await backend.invoke('openBundle', { path: copy });
    await backend.invoke('cancelLoad', { jobId: a.jobId });
    const [ja, jb] = await Promise.all([backend.waitForLoad(a.jobId), backend.waitForLoad(b.jobId)]);
    expect(ja.state).toBe('cancelled');
    expect(jb.state).toBe('done');
  });

  it('windows that attached hold the node until the last one lets it go', async () => {
    const copy = path.join(tmp, 'copy-hold');
    await cp(bundle, copy, { recursive: true });
    const id = (await open(copy)).summary!.id;
    expect((await backend.invoke('attachBundle', { bundleId: id, client: 'tab-1' })).id).toBe(id);
    await backend.invoke('attachBundle', { bundleId: id, client: 'tab-2' });
    await backend.invoke('closeBundle', { bundleId: id, client: 'tab-1' });
    expect((await backend.invoke('listOpen', {})).bundles.map((x) => x.bundleId)).toContain(id);
    await backend.invoke('closeBundle', { bundleId: id, client: 'tab-2' });
    expect((await backend.invoke('listOpen', {})).bundles.map((x) => x.bundleId)).not.toContain(id);
    await expect(backend.invoke('getTopology', { bundleId: id })).rejects.toThrow(/no longer open/);
  });
});

describe('findings in the background', () => {
  it('a walk is answered while the findings are still being computed, and the findings come once', async () => {
    const copy = path.join(tmp, 'copy-walk');
    await cp(bundle, copy, { recursive: true });
    const id = (await open(copy)).summary!.id;
    const presets = (await backend.invoke('walkPresets', { bundleId: id })) as WalkPreset[];
    const flow = presets.find((p) => p.key === 'pod-to-service')!.flow;
    const order: string[] = [];
    const findings = backend.invoke('getFindings', { bundleId: id }).then((f) => {
      order.push('findings');
      return f;
    });
    const walk = backend.invoke('walk', { bundleId: id, ...flow }).then((w) => {
      order.push(`walk while findings ${(events.filter((e) => e.type === 'step' && e.job.jobId === `${id}:findings`).at(-1)?.job as BundleStep | undefined)?.state}`);
      return w;
    });
    const [f, w] = await Promise.all([findings, walk]);
    expect(order).toEqual(['walk while findings running', 'findings']);
    expect(w.hops.length).toBeGreaterThan(0);
    // It did not wait for the checks, and says so instead of showing a path without findings as clean.
    expect(w.findings).toBeUndefined();
    expect(w.caveats?.some((c) => c.kind === 'limitation' && /checks were still running/.test(c.text))).toBe(true);
    expect(Array.isArray(f)).toBe(true);
    // Once they are done, the same walk carries the findings on its path, and no such caveat.
    const again = (await backend.invoke('walk', { bundleId: id, ...flow })) as WalkResult;
    expect(Array.isArray(again.findings)).toBe(true);
    expect(again.caveats?.some((c) => /checks were still running/.test(c.text)) ?? false).toBe(false);
    // Asked again: the same findings, no second run.
    const runs = () => events.filter((e) => e.type === 'step' && e.job.jobId === `${id}:findings` && e.job.state === 'running' && !e.job.progress).length;
    expect(runs()).toBe(1);
    expect(await backend.invoke('getFindings', { bundleId: id })).toEqual(f);
    expect(runs()).toBe(1);
  });

  it('a window attaching starts the checks, without a request waiting on them', async () => {
    const copy = path.join(tmp, 'copy-attach');
    await cp(bundle, copy, { recursive: true });
    const id = (await open(copy)).summary!.id;
    expect((await backend.invoke('getStep', { bundleId: id, step: 'findings' })).state).toBe('waiting');
    await backend.invoke('attachBundle', { bundleId: id, client: 'tab-attach' });
    expect((await backend.invoke('getStep', { bundleId: id, step: 'findings' })).state).not.toBe('waiting');
    await backend.invoke('closeBundle', { bundleId: id, client: 'tab-attach' });
  });

  it('progress advances check by check, then the step is done', async () => {
    const copy = path.join(tmp, 'copy-progress');
    await cp(bundle, copy, { recursive: true });
    const id = (await open(copy)).summary!.id;
    const mine = () => events.filter((e): e is { type: 'step'; job: BundleStep } => e.type === 'step' && e.job.jobId === `${id}:findings`).map((e) => e.job);
    expect((await backend.invoke('getStep', { bundleId: id, step: 'findings' })).state).toBe('waiting');
    await backend.invoke('getFindings', { bundleId: id });
    const seen = mine();
    expect(seen.at(-1)!.state).toBe('done');
    const checks = seen.filter((s) => s.progress && s.progress.total > 0).map((s) => s.progress!);
    expect(checks.length).toBeGreaterThan(0);
    for (let i = 1; i < checks.length; i++) expect(checks[i].done).toBeGreaterThanOrEqual(checks[i - 1].done);
    expect(checks.some((p) => p.what)).toBe(true);
    expect((await backend.invoke('getStep', { bundleId: id, step: 'findings' })).state).toBe('done');
  });

  it('a step that fails says why, and runs again when its result is asked for', async () => {
    const copy = path.join(tmp, 'copy-fail');
    await cp(bundle, copy, { recursive: true });
    const id = (await open(copy)).summary!.id;
    // The checks read the bundle again in their worker: take it away.
    await rename(copy, `${copy}-gone`);
    await expect(backend.invoke('getFindings', { bundleId: id })).rejects.toThrow(/copy-fail/);
    const failed = await backend.invoke('getStep', { bundleId: id, step: 'findings' });
    expect(failed.state).toBe('error');
    expect(failed.error).toMatch(/copy-fail/);
    // Other requests still work.
    expect((await backend.invoke('search', { bundleId: id, query: '10.' })).length).toBeGreaterThan(0);
    await rename(`${copy}-gone`, copy);
    expect(Array.isArray(await backend.invoke('getFindings', { bundleId: id }))).toBe(true);
    expect((await backend.invoke('getStep', { bundleId: id, step: 'findings' })).state).toBe('done');
  });

  it('the search index is built once, in the background, and says when it is done', async () => {
    const id = (await open(bundle)).summary!.id;
    const hits = await backend.invoke('search', { bundleId: id, query: 'LB_DSR' });
    expect(hits.some((h) => h.rule && h.ref.type === 'port')).toBe(true);
    const step = await backend.invoke('getStep', { bundleId: id, step: 'search' });
    expect(step.state).toBe('done');
    const runs = events.filter((e) => e.type === 'step' && e.job.jobId === `${id}:search` && e.job.state === 'done').length;
    await backend.invoke('search', { bundleId: id, query: '10.96.0.10' });
    expect(events.filter((e) => e.type === 'step' && e.job.jobId === `${id}:search` && e.job.state === 'done').length).toBe(runs);
  });
});
