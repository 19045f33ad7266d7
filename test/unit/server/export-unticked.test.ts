// Export: every walk the user added, unticked, means a report without walks — not the notes' walks
// again (review2, session 11: analysis/report/build.ts fell back to the notes when the ticked list was
// empty). With no walk added, the report keeps showing the node's example walks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Backend } from '../../../services/backend/backend.ts';

const DEMO = path.resolve('assets/demo/l2bridge-node');
let dir: string;
let backend: Backend;
let bundleId: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-export-unticked-'));
  backend = new Backend({ mode: 'browser', dataDir: dir, initialBundle: DEMO });
  const { jobId } = await backend.invoke('openBundle', { path: DEMO });
  bundleId = (await backend.waitForLoad(jobId)).summary!.id;
});
afterAll(async () => {
  backend.close();
  await rm(dir, { recursive: true, force: true });
});

const walksIn = async () => {
  const r = (await backend.invoke('exportReport', { bundleId, format: 'json', traces: [], redact: false })) as { content?: string };
  return (JSON.parse(r.content!) as { traces: unknown[] }).traces.length;
};

describe('exported walks', () => {
  it('none added: the example walks; some added, all unticked: none', async () => {
    expect(await walksIn()).toBeGreaterThan(0);
    const added = { title: '', summary: '', notes: [], traces: [{ srcIp: '10.244.32.3', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' as const }] };
    await backend.invoke('saveNotes', { bundleId, notes: added, baseRevision: 0 });
    expect(await walksIn()).toBe(0);
  }, 120_000);
});
