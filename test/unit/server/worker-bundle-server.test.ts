// Browser mode's server keeps answering while a worker bundle is being built (services/worker-entry/
// ensure-bundle.ts): the build runs in a child process and the workers started meanwhile run through
// tsx. The build is held (SIGSTOP) from the moment it starts, so "answered while the build was in
// progress" is an order of events, not a race against its duration. Before this, the first worker start
// after an edit built synchronously on the server's thread (spawnSync): nothing was answered until the
// build ended, and a held build would never end.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { Backend } from '../../../services/backend/backend.ts';
import { startServer, type RunningServer } from '../../../services/server/server.ts';
import { workerBundlesSettled } from '../../../services/worker-entry/ensure-bundle.ts';
import { freshBundle } from '../../../services/worker-entry/fresh-bundle.mjs';
import { holdBuilds } from './worker-bundle-hold.ts';

const repo = path.resolve(import.meta.dirname, '../../..');
const DEMO = path.join(repo, 'assets/demo/l2bridge-node');
const FINDINGS_ENTRY = path.join(repo, 'services/backend/findings-worker.mjs');
const TOKEN = 'worker-bundle-token-0123456789';
let dir: string;
let cache: string;
let server: RunningServer;
const lines: string[] = [];
const before = process.env.HNSIGHT_WORKER_CACHE;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-wb-server-'));
  // An empty cache: the first worker this server starts needs a build. Inside the checkout: a bundle
  // finds its packages in the node_modules above it.
  await mkdir(path.join(repo, '.cache'), { recursive: true });
  cache = await mkdtemp(path.join(repo, '.cache', 'workers-test-'));
  process.env.HNSIGHT_WORKER_CACHE = cache;
  const backend = new Backend({ mode: 'browser', dataDir: path.join(dir, 'data'), initialBundle: DEMO, log: (l) => lines.push(l) });
  server = await startServer({ backend, staticDir: dir, token: TOKEN });
});
afterAll(async () => {
  if (before === undefined) delete process.env.HNSIGHT_WORKER_CACHE;
  else process.env.HNSIGHT_WORKER_CACHE = before;
  await server?.close();
  await rm(dir, { recursive: true, force: true });
  await rm(cache, { recursive: true, force: true });
});

function api(method: string, body: unknown): Promise<{ status: number; body: { ok: boolean; value?: unknown } }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, path: `/api/${method}`, method: 'POST', headers: { 'X-Hnsight-Token': TOKEN, 'Content-Type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('a worker bundle built while the server runs', () => {
  it('is built in the background: the server answers, and the checks run through tsx, before the build ends', async () => {
    const hold = holdBuilds();
    try {
      const opened = await api('openBundle', { path: DEMO });
      expect(opened.status).toBe(200);
      const { jobId } = opened.body.value as { jobId: string };
      // The checks start a worker: its bundle is missing, so a build starts (and is held at once).
      const bundleId = await waitForBundleId(jobId);
      const findings = api('getFindings', { bundleId });
      await vi.waitFor(() => expect(hold.builds.length).toBeGreaterThan(0), { timeout: 30_000, interval: 50 });
      let ended = false;
      void Promise.all(hold.builds.map((b) => b.done)).then(() => (ended = true));
      expect(hold.builds.flatMap((b) => b.entries)).toContain(FINDINGS_ENTRY);

      // A request answered while the build is held, and the findings themselves, from a worker on tsx.
      const info = await api('info', {});
      expect(info.status).toBe(200);
      expect(info.body.ok).toBe(true);
      const f = await findings;
      expect(f.status).toBe(200);
      expect((f.body.value as unknown[]).length).toBeGreaterThan(0);
      expect(ended).toBe(false);
      expect(freshBundle(FINDINGS_ENTRY, cache)).toBeUndefined();

      hold.release();
      await workerBundlesSettled();
      const results = (await Promise.all(hold.builds.map((b) => b.done))).flat();
      expect(results.find((r) => r.entry === FINDINGS_ENTRY)?.result).toBe('built');
      expect(freshBundle(FINDINGS_ENTRY, cache)).toBeDefined();
      expect(lines.filter((l) => /worker starts through tsx/.test(l))).toEqual([]);
    } finally {
      hold.stop();
    }
  }, 180_000);
});

/** The bundle's id once its load ended: it is then listed as open. */
async function waitForBundleId(jobId: string): Promise<string> {
  return vi.waitFor(
    async () => {
      const r = await api('listOpen', {});
      const b = (r.body.value as { bundles: { bundleId: string; jobId: string }[] }).bundles.find((x) => x.jobId === jobId);
      if (!b) throw new Error('not loaded yet');
      return b.bundleId;
    },
    { timeout: 60_000, interval: 100 },
  );
}
