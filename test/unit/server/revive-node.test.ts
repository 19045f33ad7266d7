// One revival for every worker (#24): the findings, reachability, Services and reachability-comparison
// workers all rebuild their node through services/backend/revive-node.ts. A node rebuilt in a worker
// from what crossed the thread (the VFP dump parsed by the load's parse worker, its bytes a file or
// shared memory, its index cloned) must answer a walk and read a rule's bytes — the Services worker
// once skipped the revival and failed with 'src.read is not a function'. Then each worker's own entry
// is run on such a node.
import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../../services/bundle/load.ts';
import { diskOrigin } from '../../../services/bundle/origin.ts';
import { runFindings } from '../../../services/backend/findings-runner.ts';
import { runServices } from '../../../services/backend/services-runner.ts';
import { ReachSession } from '../../../services/backend/reach-session.ts';
import { ReachDiffs } from '../../../services/backend/reach-diffs.ts';
import { reuseForWorkers } from '../../../services/backend/revive-node.ts';
import { WORKER_LIMITS } from '../../../services/backend/worker-limits.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { readRuleAt } from '../../../parsers/vfp/rule-at.ts';
import { defaultDestinations, defaultSources } from '../../../analysis/reach/index.ts';
import { buildNode, writeBundle } from '../../../tools/gen/index.ts';
import { servicesTable } from '../../../analysis/view-models/services-table.ts';
import { WorkBudget, withBudget } from '../../../analysis/budget.ts';
import { ANALYSIS_BUDGET } from '../../../services/analysis-budget.ts';
import type { ParsedFile } from '../../../parsers/bundle/parsed-file.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { Flow } from '../../../analysis/walk/types.ts';
import type { ProbeIn, ProbeOut } from './revive/probe-main.ts';

const DEMO = path.resolve('assets/demo/l2bridge-node');
const origin = diskOrigin(DEMO);
let model: NodeModel;
/** What the backend hands its workers: the VFP dumps the parse worker parsed (load-jobs.ts onBigParsed). */
const reuse: ParsedFile[] = [];
let flow: Flow;

function probe(req: ProbeIn): Promise<ProbeOut> {
  const w = new Worker(new URL('./revive/probe-worker.mjs', import.meta.url));
  return new Promise<ProbeOut>((resolve, reject) => {
    w.once('message', (m: ProbeOut) => resolve(m));
    w.once('error', reject);
    w.postMessage(req);
  }).finally(() => void w.terminate());
}

beforeAll(async () => {
  // Every file goes to the parse worker, as a big one does: its VFP dump comes back as a byte source.
  model = await loadBundle(DEMO, { bigFileBytes: 0, onBigParsed: (p) => p.content.type === 'vfp' && reuse.push(p) });
  const src = defaultSources(model).find((s) => s.name !== 'host')!;
  const dst = defaultDestinations(model).find((d) => d.ip !== src.ip && d.port !== undefined)!;
  flow = { srcIp: src.ip, dstIp: dst.ip, dstPort: dst.port, proto: dst.proto };
}, 120_000);

describe('a node revived in a worker', () => {
  it('answers a walk as the node it was rebuilt from does, and reads a rule from the dump it took over', async () => {
    expect(reuse.length).toBeGreaterThan(0);
    const here = walkFlow(model, flow, { explain: true, reply: true });
    const first = readRuleAt(model.vfp!.files[0]!.bytes, model.vfp!.files[0]!.index, 0)!;
    const out = await probe({ origin, reuse, flow });
    if ('error' in out) throw new Error(out.error);
    expect(out.verdict).toBe(here.verdict);
    expect(out.hops).toBe(here.hops.length);
    expect(out.rule).toEqual({ id: first.id, line: first.src?.line });
    // The dump was taken over, not parsed again.
    expect(out.reused).toBe(reuse.length);
  }, 60_000);

  it("reads the node's own VFP index once it is shared (issue #27 point 2): shared memory, not a clone, and the same answers", async () => {
    const here = walkFlow(model, flow, { explain: true, reply: true });
    const first = readRuleAt(model.vfp!.files[0]!.bytes, model.vfp!.files[0]!.index, 0)!;
    // As the load hands them over (the parse worker's buffers, transferred): each worker got a copy.
    const before = await probe({ origin, reuse, flow });
    if ('error' in before) throw new Error(before.error);
    expect(before.shared).toBe(false);
    // As the backend hands them to its workers (open-bundles.ts): the main thread's node reads the
    // shared arrays too, and a worker's node answers as the main thread's does.
    const handed = reuseForWorkers(reuse);
    expect(handed.map((p) => p.name)).toEqual(reuse.map((p) => p.name));
    expect(walkFlow(model, flow, { explain: true, reply: true })).toEqual(here);
    const out = await probe({ origin, reuse: handed, flow });
    if ('error' in out) throw new Error(out.error);
    expect(out.shared).toBe(true);
    expect(out.rules).toBe(model.vfp!.files[0]!.index.ruleByte.length);
    expect(out.verdict).toBe(here.verdict);
    expect(out.hops).toBe(here.hops.length);
    expect(out.rule).toEqual({ id: first.id, line: first.src?.line });
    expect(out.reused).toBe(reuse.length);
  }, 60_000);

  it('fails without the revival (what the Services worker once did): the test can tell', async () => {
    const out = await probe({ origin, reuse, flow, raw: true });
    expect(out).toMatchObject({ error: expect.stringMatching(/is not a function/) });
  }, 60_000);
});

describe("each worker's entry rebuilds its node through the shared revival", () => {
  const ENTRIES = ['findings', 'reach', 'services', 'reach-diff'];

  it.each(ENTRIES)('%s-worker-main.ts revives with revive-node.ts and nothing of its own', (name) => {
    const text = readFileSync(path.resolve(`services/backend/${name}-worker-main.ts`), 'utf8');
    expect(text).toMatch(/import \{ reviveNode \} from '\.\/revive-node\.ts'/);
    // A loader call or a revival of its own is how one worker drifted from the others.
    expect(text).not.toMatch(/\bload(Origin|Bundle|Texts)\(|reviveVfpContent|reviveBytes/);
  });

  it.each([
    ['findings-runner', 'WORKER_LIMITS'],
    ['services-runner', 'WORKER_LIMITS'],
    ['reach-session', 'WALK_WORKER_LIMITS'],
    ['reach-diffs', 'WALK_WORKER_LIMITS'],
  ])('%s.ts starts its worker under the shared memory limits (worker-limits.ts %s)', (name, limits) => {
    const text = readFileSync(path.resolve(`services/backend/${name}.ts`), 'utf8');
    // Every worker holds a node beside the server's: a young generation left at V8's default (≈ 48 MiB
    // a thread) was a tenth of the server's peak on the 250-pod node (test/bench/server-memory.ts);
    // the walking workers keep it (no gain was shown for them).
    expect(text).toMatch(new RegExp(`new Worker\\([^;]*\\{ resourceLimits: ${limits} \\}\\)`));
    expect(text).not.toMatch(/maxOldGenerationSizeMb|maxYoungGenerationSizeMb/);
    expect(WORKER_LIMITS.maxYoungGenerationSizeMb).toBeLessThanOrEqual(16);
  });

  it('findings: the checks run on the revived node', async () => {
    const findings = await runFindings({ origin, reuse }, () => undefined).done;
    expect(findings.length).toBeGreaterThan(0);
  }, 120_000);

  it('services: the table is worked out on the revived node, the same as on the node it was rebuilt from', async () => {
    // The demo has no kubectl snapshot (no Services): a small generated node with one.
    const dir = await mkdtemp(path.join(tmpdir(), 'hnsight-revive-'));
    try {
      const node = buildNode({ seed: 5, hostName: 'win-node-svc', network: 'l2bridge', schema: 2, pods: 4, services: 12, remoteNodes: 1, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340', platform: 'flannel-host-gw' });
      const at = (await writeBundle(node, path.join(dir, 'node'))).path;
      const taken: ParsedFile[] = [];
      const here = await loadBundle(at, { bigFileBytes: 0, onBigParsed: (p) => p.content.type === 'vfp' && taken.push(p) });
      expect(taken.length).toBeGreaterThan(0);
      const view = await runServices({ origin: diskOrigin(at), reuse: taken }, () => undefined).done;
      expect(view.rows.length).toBeGreaterThan(12);
      expect(view).toEqual(withBudget(new WorkBudget(ANALYSIS_BUDGET), () => servicesTable(here)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('reach: cells are walked on the revived node', async () => {
    const s = new ReachSession('revive', undefined, { origin, reuse, findings: async () => [], maxCells: 40, maxMs: 30_000 });
    try {
      for (let i = 0; i < 600; i++) {
        const v = await s.snapshot();
        if (v.ready && !v.running) {
          expect(v.cells.length).toBeGreaterThan(0);
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the reachability never went idle');
    } finally {
      s.close();
    }
  }, 120_000);

  it('reach-diff: the comparison walks a packet on either side', async () => {
    const diffs = new ReachDiffs(undefined, { maxMs: 30_000 });
    try {
      await diffs.get('j1', { pathA: DEMO, pathB: DEMO });
      const here = walkFlow(model, flow, { explain: true, reply: true });
      for (const side of ['a', 'b'] as const) expect((await diffs.walk('j1', side, flow)).verdict).toBe(here.verdict);
    } finally {
      diffs.close();
    }
  }, 180_000);
});
