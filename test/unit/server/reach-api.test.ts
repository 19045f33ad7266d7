// The reachability methods of the contract through the backend's one dispatch: getStep answers the
// reach step (waiting until the view asks, then running, then done), reachMatrix's snapshots follow
// each other (`from`), reachCompute refuses a request beyond its bound, and a comparison's
// reachability (reachDiff) lists no change for a bundle against itself and walks either side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Backend } from '../../../services/backend/backend.ts';

let dir: string;
let backend: Backend;
let bundleId: string;
const DEMO = path.resolve('assets/demo/l2bridge-node');

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-reach-api-'));
  backend = new Backend({ mode: 'browser', dataDir: dir, initialBundle: DEMO });
  const { jobId } = await backend.invoke('openBundle', { path: DEMO });
  const job = await backend.waitForLoad(jobId);
  bundleId = job.summary!.id;
});
afterAll(async () => {
  await backend.invoke('closeBundle', { bundleId }).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('reachability through the API', () => {
  it('getStep answers the reach step, from waiting to done', async () => {
    expect((await backend.invoke('getStep', { bundleId, step: 'reach' })).state).toBe('waiting');
    let first = await backend.invoke('reachMatrix', { bundleId });
    for (let i = 0; i < 30 && !first.ready; i++) first = await backend.invoke('reachMatrix', { bundleId });
    expect(first.from).toBe(0);
    expect(first.sources.length).toBeGreaterThan(0);
    for (let i = 0; i < 1200 && (await backend.invoke('getStep', { bundleId, step: 'reach' })).state !== 'done'; i++) await new Promise((r) => setTimeout(r, 100));
    const step = await backend.invoke('getStep', { bundleId, step: 'reach' });
    expect(step).toMatchObject({ jobId: `${bundleId}:reach`, step: 'reach', state: 'done' });
    const all = await backend.invoke('reachMatrix', { bundleId });
    expect(all.running).toBe(false);
    const rest = await backend.invoke('reachMatrix', { bundleId, from: all.count - 1 });
    expect(rest.cells).toEqual(all.cells.slice(-1));
  }, 120_000);

  it('reachCompute takes indexes and refuses more cells than one request may ask', async () => {
    const v = await backend.invoke('reachMatrix', { bundleId, from: 1e9 });
    expect((await backend.invoke('reachCompute', { bundleId, sources: [0], destinations: [0] })).queued).toBe(1);
    await expect(backend.invoke('reachCompute', { bundleId, sources: [0], destinations: [] })).rejects.toThrow();
    expect(v.count).toBeGreaterThan(0);
  }, 60_000);

  it('a bundle compared with itself: no reachability change, and a walk on either side', async () => {
    const { jobId } = await backend.invoke('openDiff', { pathA: DEMO, pathB: DEMO });
    for (let i = 0; i < 1200 && (await backend.invoke('getDiff', { jobId })).state === 'loading'; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await backend.invoke('getDiff', { jobId })).state).toBe('done');
    // Within seconds an answer, or null while it runs (its step says when it ends): ask until there.
    let d = await backend.invoke('reachDiff', { jobId });
    for (let i = 0; i < 30 && !d; i++) d = await backend.invoke('reachDiff', { jobId });
    if (!d) throw new Error('the comparison of reachability never ended');
    expect(d.changed).toEqual([]);
    // Through the backend the comparison runs under the analysis budget (30 s): on a busy machine it may
    // stop before the last source, and then it must say so, naming how many it compared. (Every source
    // compared is asserted with a budget no machine reaches in reach-diff-v6 and reach-diff-walk-findings.)
    expect(d.compared).toBeGreaterThan(0);
    expect(d.compared).toBeLessThanOrEqual(d.sources);
    if (d.compared < d.sources) expect(d.notes.join('\n')).toContain(`${d.compared} of ${d.sources} sources compared`);
    expect(d.sources).toBeGreaterThan(0);
    const m = await backend.invoke('reachMatrix', { bundleId, from: 1e9 });
    const src = m.sources.find((s) => s.kind === 'pod')!.ip;
    const a = await backend.invoke('walkCompared', { jobId, side: 'a', srcIp: src, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' });
    const b = await backend.invoke('walkCompared', { jobId, side: 'b', srcIp: src, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' });
    expect(a.verdict).toBe(b.verdict);
    expect(a.hops.length).toBeGreaterThan(0);
    await expect(backend.invoke('walkCompared', { jobId: 'diff-nope', side: 'a', srcIp: src, dstIp: '93.184.216.34', proto: 'icmp' })).rejects.toThrow(/compare them again/);
  }, 180_000);
});
