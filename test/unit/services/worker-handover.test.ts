// The backend's workers take the node's files over from the load instead of parsing them again (issue
// #27 point 2; services/backend/packed-files.ts, revive-node.ts): a node rebuilt in a worker from what
// was handed over must be the node the main thread built — same fingerprint of everything JSON can say
// of it (model-fingerprint.ts) — on the demo, the foreign fixtures and a generated node of every
// platform. A record handed over is what the worker uses (not a file parsed again), and what cannot be
// handed over (not plain data) is parsed again in the worker: the fallback gives the same node.
import { Worker } from 'node:worker_threads';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../../services/bundle/load.ts';
import { diskOrigin } from '../../../services/bundle/origin.ts';
import { collectHandOver, reuseForWorkers, type HandedFile } from '../../../services/backend/revive-node.ts';
import { isPacked, packParsedFile, unpackParsedFile, type PackedFile } from '../../../services/backend/packed-files.ts';
import { buildNode, DEFAULT_SPEC, PLATFORMS, writeBundle } from '../../../tools/gen/index.ts';
import { modelFingerprint } from './model-fingerprint.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { ParsedFile } from '../../../parsers/bundle/parsed-file.ts';
import type { NodeProbeIn, NodeProbeOut } from './revive/node-probe-main.ts';

const DEMO = path.resolve('assets/demo/l2bridge-node');
const FOREIGN = ['aks-win-zip-2025', 'ws2019-flannel-l2bridge-2020', 'ws2022-overlay-2024'].map((d) => path.resolve('test/fixtures/foreign', d));

let worker: Worker;
let dir: string;
let nextId = 0;
const waiting = new Map<number, (m: NodeProbeOut) => void>();

type Revived = Extract<NodeProbeOut, { fingerprint: string }>;

function revive(req: Omit<NodeProbeIn, 'id'>): Promise<Revived> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    waiting.set(id, (m) => ('error' in m ? reject(new Error(m.error)) : resolve(m)));
    worker.postMessage({ ...req, id } satisfies NodeProbeIn);
  });
}

/** Loaded as the backend loads (load-jobs.ts): what the load parsed, gathered for the workers. */
async function loadAsBackend(at: string, bigFileBytes?: number): Promise<{ model: NodeModel; handed: HandedFile[] }> {
  const h = collectHandOver();
  const model = await loadBundle(at, { bigFileBytes, onParsed: h.onParsed, onBigParsed: h.onBigParsed });
  return { model, handed: reuseForWorkers(h.files) };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-handover-'));
  worker = new Worker(new URL('./revive/node-probe-worker.mjs', import.meta.url));
  worker.on('message', (m: NodeProbeOut) => {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
});

afterAll(async () => {
  await worker.terminate();
  await rm(dir, { recursive: true, force: true });
});

describe('a node rebuilt in a worker from what the load handed over', () => {
  const cases: [string, () => Promise<string>, number?][] = [
    // Every file through the parse worker, as the big node's: the VFP dump handed over as it is, the others packed.
    ['the demo, every file parsed in the parse worker', async () => DEMO, 0],
    ['the demo, as loaded by default (its small VFP dump parsed again: the fallback)', async () => DEMO],
    ...FOREIGN.map((f): [string, () => Promise<string>] => [`foreign fixture ${path.basename(f)}`, async () => f]),
    ...PLATFORMS.map((platform): [string, () => Promise<string>] => [
      `a generated ${platform} node`,
      async () => (await writeBundle(buildNode({ ...DEFAULT_SPEC, platform, seed: 3 }), path.join(dir, platform))).path,
    ]),
  ];

  it.each(cases)('%s: the same node as the main thread built', async (_name, where, bigFileBytes) => {
    const at = await where();
    const { model, handed } = await loadAsBackend(at, bigFileBytes);
    const packed = handed.filter(isPacked);
    // Every file the load decoded is handed over but the VFP dumps (parsed again unless their bytes are
    // shared); files only listed or classified from their head are read again (that is cheap).
    const vfpNames = new Set(model.vfp?.files.map((f) => f.file) ?? []);
    const decoded = model.files.filter((f) => f.encoding !== 'not-read' && !vfpNames.has(f.name)).map((f) => f.name);
    const names = packed.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(decoded));
    expect(model.files.map((f) => f.name)).toEqual(expect.arrayContaining(names));
    expect(packed.length).toBeGreaterThan(2);
    const out = await revive({ origin: diskOrigin(at), reuse: handed });
    expect(out.walkable).toBe(true);
    expect(out.fingerprint).toBe(modelFingerprint(model));
  }, 120_000);
});

describe('what the worker uses', () => {
  it('is the record handed over, not the file parsed again', async () => {
    const { handed } = await loadAsBackend(DEMO);
    const i = handed.findIndex((f) => isPacked(f) && /endpoint/i.test(f.name));
    expect(i).toBeGreaterThanOrEqual(0);
    const record = unpackParsedFile(handed[i] as PackedFile);
    // A mark no parse of the file makes: only a record taken over carries it into the worker's node.
    const marked = packParsedFile({ ...record, issues: [...record.issues, { file: record.name, line: 0, severity: 'info', message: 'handed over, not parsed again' }] })!;
    const withMark = await revive({ origin: diskOrigin(DEMO), reuse: handed.map((f, j) => (j === i ? marked : f)), file: record.name });
    expect(withMark.issues).toContain('handed over, not parsed again');
    // The fingerprint sees a record's content (the comparisons above can fail).
    expect(withMark.fingerprint).not.toBe((await revive({ origin: diskOrigin(DEMO), reuse: handed })).fingerprint);
    // Without the record the worker parses the file again (the fallback): no mark, the same node.
    const without = await revive({ origin: diskOrigin(DEMO), reuse: handed.filter((_, j) => j !== i), file: record.name });
    expect(without.issues).not.toContain('handed over, not parsed again');
    const all = await revive({ origin: diskOrigin(DEMO), reuse: handed });
    expect(without.fingerprint).toBe(all.fingerprint);
  }, 120_000);

  it('a record that is not plain data is not handed over: the worker parses its file again and gets the same node', async () => {
    const h = collectHandOver();
    const model = await loadBundle(DEMO, {
      onBigParsed: h.onBigParsed,
      // A parser that left a function in its record (not plain data: it cannot cross a thread).
      onParsed: (p) => h.onParsed(/endpoint/i.test(p.name) && p.content.type === 'hns' ? ({ ...p, content: { ...p.content, value: { ...p.content.value, describe: () => 'code' } } } as ParsedFile) : p),
    });
    const handed = reuseForWorkers(h.files);
    const endpointFile = model.files.find((f) => /endpoint/i.test(f.name))!.name;
    expect(handed.some((f) => f.name === endpointFile)).toBe(false);
    expect(handed.filter(isPacked).length).toBeGreaterThan(2);
    const out = await revive({ origin: diskOrigin(DEMO), reuse: handed });
    expect(out.fingerprint).toBe(modelFingerprint(model));
  }, 120_000);
});
