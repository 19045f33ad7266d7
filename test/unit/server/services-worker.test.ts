// getServices off the backend's thread (issue #26): the table of a big node is worked out in a worker
// (services/backend/services-runner.ts), so another request is answered while it runs; its progress is
// the node's 'services' step; the result is kept per node. Ordering is asserted, never time: on the
// backend's thread the table was worked out before any other request could be answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Backend } from '../../../services/backend/backend.ts';
import { buildNode, writeBundle } from '../../../tools/gen/index.ts';
import type { BundleStep } from '../../../contract/index.ts';
import type { ServicesTableView } from '../../../analysis/view-models/services-table.ts';

let dir: string;
let backend: Backend;
let bundleId: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-svcw-'));
  const node = buildNode({ seed: 11, hostName: 'win-node-big', network: 'l2bridge', schema: 2, pods: 40, services: 400, remoteNodes: 3, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340', platform: 'flannel-host-gw' });
  const bundle = (await writeBundle(node, path.join(dir, 'node'))).path;
  backend = new Backend({ mode: 'browser', dataDir: path.join(dir, 'data'), allowedRoots: [dir] });
  const { jobId } = (await backend.invoke('openBundle', { path: bundle })) as { jobId: string };
  const job = await backend.waitForLoad(jobId);
  expect(job.state).toBe('done');
  bundleId = job.summary!.id;
}, 180_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('getServices in a worker', () => {
  it('another request is answered while the table is worked out; progress is said; the table is kept', async () => {
    const steps: BundleStep[] = [];
    const off = backend.onEvent((e) => {
      if (e.type === 'step' && e.job.jobId === `${bundleId}:services`) steps.push(e.job);
    });
    const order: string[] = [];
    const services = (async () => {
      // null: still under way past the answer's wait; asked again at the step's end.
      let v = (await backend.invoke('getServices', { bundleId })) as ServicesTableView | null;
      while (!v) v = (await backend.invoke('getServices', { bundleId })) as ServicesTableView | null;
      order.push('getServices');
      return v;
    })();
    const other = backend.invoke('listOpen', {}).then((r) => {
      order.push('listOpen');
      return r;
    });
    const [view] = await Promise.all([services, other]);
    off();
    expect(order).toEqual(['listOpen', 'getServices']);
    expect(view.rows.length).toBeGreaterThan(400);
    // The page's "Working out the Services…" follows these: running with what is being done, then done.
    expect(steps.some((s) => s.state === 'running' && s.progress?.what === 'reading the bundle')).toBe(true);
    expect(steps.some((s) => s.state === 'running' && /holding the 400 Services/.test(s.progress?.what ?? ''))).toBe(true);
    expect(steps.at(-1)!.state).toBe('done');
    expect(await backend.invoke('getStep', { bundleId, step: 'services' })).toMatchObject({ state: 'done' });
    // Kept per node: asked again, answered at once with no new run (no step event).
    const n = steps.length;
    expect(await backend.invoke('getServices', { bundleId })).toEqual(view);
    expect(steps.length).toBe(n);
  }, 180_000);
});

describe('getServices while the worker is still at it', () => {
  it('answers null past its wait (the step says when to ask again), never a request left silent', async () => {
    const { servicesHandlers } = await import('../../../services/backend/handlers/services.ts');
    const never = new Promise<ServicesTableView>(() => undefined);
    const ctx = { bundles: { get: () => ({ services: { get: () => never } }) } } as unknown as Parameters<typeof servicesHandlers>[0];
    await expect(servicesHandlers(ctx, 5).getServices({ bundleId: 'b' })).resolves.toBeNull();
  });
});
