// Runs fuzz cases in a child process of the harness (child.mjs: bundled or through tsx; a capped heap), so a case that
// exhausts its heap or hangs costs the child, not the harness: the harness sees it die or go quiet and
// knows which case it was on. A process, not a worker thread: a worker running out of heap in some
// native allocations (TextDecoder's, for one) takes the whole process down with it.
import { exercise, exerciseZip, loadFiles, type Files, type ZipDamage } from './exercise.ts';
import { BASES, baseFiles, makeCase } from './mutate.ts';
import type { NodeModel } from '../../parsers/model/types.ts';

export type ChildTask = { seed: number } | { replay: { base?: string; files: [string, string][]; zip?: ZipDamage } };
export type ChildAnswer = { ok: true; overBudget: string[]; checkFailed: string[] } | { ok: false; error: string };

const bases = new Map<string, NodeModel>();
const baseModel = (rel: string | undefined): NodeModel | undefined => {
  const dir = BASES.find((b) => rel && b.endsWith(rel));
  if (!dir) return undefined;
  let m = bases.get(dir);
  if (!m) bases.set(dir, (m = loadFiles(baseFiles(dir))));
  return m;
};

process.on('message', async (task: ChildTask) => {
  let answer: ChildAnswer;
  try {
    let files: Files;
    let base: string | undefined;
    let zip: ZipDamage | undefined;
    if ('seed' in task) ({ files, base, zip } = makeCase(task.seed));
    else {
      files = task.replay.files.map(([n, b64]) => [n, new Uint8Array(Buffer.from(b64, 'base64'))]);
      ({ base, zip } = task.replay);
    }
    answer = { ok: true, ...(zip ? await exerciseZip(files, zip, baseModel(base)) : exercise(files, baseModel(base))) };
  } catch (e) {
    answer = { ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  process.send!(answer);
});
process.send!({ ready: true });
