// Worker bundles built ahead, where waiting costs nobody: `npm start`'s launcher before it starts the
// server (tools/start.mjs), as test/global-setup.ts does before the first test file. And the list they
// build is every worker the app starts: a worker entry left off it would run through tsx until its
// first start built it.
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY, PRODUCT_WORKER_ENTRIES, freshBundle } from '../../../services/worker-entry/fresh-bundle.mjs';

const repo = path.resolve(import.meta.dirname, '../../..');
const start = (await import(pathToFileURL(path.join(repo, 'tools/start.mjs')).href)) as { buildWorkerBundlesIfNeeded(o?: { write?: (l: string) => void }): Promise<void> };
const before = process.env.HNSIGHT_WORKER_CACHE;
let cache: string;

beforeAll(async () => {
  // Inside the checkout (a bundle finds its packages in the node_modules above it), and empty.
  await mkdir(path.join(repo, '.cache'), { recursive: true });
  cache = await mkdtemp(path.join(repo, '.cache', 'workers-test-'));
  process.env.HNSIGHT_WORKER_CACHE = cache;
});
afterAll(async () => {
  if (before === undefined) delete process.env.HNSIGHT_WORKER_CACHE;
  else process.env.HNSIGHT_WORKER_CACHE = before;
  await rm(cache, { recursive: true, force: true });
});

/** Every `*-worker.mjs` under services/ (the files `new Worker()` is given). */
async function workerEntriesOnDisk(): Promise<string[]> {
  const found: string[] = [];
  for (const d of await readdir(path.join(repo, 'services'), { recursive: true })) {
    if (!d.endsWith('-worker.mjs')) continue;
    const f = path.join(repo, 'services', d);
    if ((await readFile(f, 'utf8')).includes('runWorkerMain(')) found.push(f);
  }
  return found.sort();
}

describe('worker bundles built ahead', () => {
  it('the list is every worker entry there is', async () => {
    expect([...PRODUCT_WORKER_ENTRIES].sort()).toEqual(await workerEntriesOnDisk());
  });

  // The server itself too (bin/hnsight.mjs: `hnsight serve` from its bundle, not through tsx).
  it("npm start's launcher builds the stale ones, the server's own among them, before the server starts, and nothing once they are current", async () => {
    for (const e of [...PRODUCT_WORKER_ENTRIES, CLI_ENTRY]) expect(freshBundle(e)).toBeUndefined();
    const lines: string[] = [];
    await start.buildWorkerBundlesIfNeeded({ write: (l) => lines.push(l) });
    expect(lines).toEqual(['hnsight: preparing the server and its worker threads (once after a change)…\n']);
    for (const e of [...PRODUCT_WORKER_ENTRIES, CLI_ENTRY]) expect(freshBundle(e), e).toMatch(/^file:/);
    const again: string[] = [];
    await start.buildWorkerBundlesIfNeeded({ write: (l) => again.push(l) });
    expect(again).toEqual([]);
  }, 180_000);
});
