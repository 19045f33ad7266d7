// Big files are parsed in a worker thread; what comes back must behave exactly like an in-thread
// parse (the index's line numbers are resolved by methods that structured cloning drops).
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { countObjects } from '../../../analysis/inspect.ts';

const demo = path.resolve('assets/demo/overlay-node');

describe('loading through the worker thread', () => {
  it('gives the same model, lines included, as loading in the main thread', async () => {
    const [inThread, viaWorker] = await Promise.all([loadBundle(demo), loadBundle(demo, { bigFileBytes: 1 })]);
    expect(countObjects(viaWorker)).toEqual(countObjects(inThread));
    const lines = (m: typeof inThread) => m.ports!.filter((p) => p.policy).map((p) => [p.key, p.policy!.src.line, p.src.line]);
    expect(lines(viaWorker)).toEqual(lines(inThread));
    const port = inThread.ports!.find((p) => (p.policy?.rules ?? 0) > 10)!;
    const rules = (m: typeof inThread) => m.vfp!.getPolicy(port.key)!.layers.flatMap((l) => l.groups.flatMap((g) => g.rules.map((r) => [r.name, r.src.line])));
    expect(rules(viaWorker)).toEqual(rules(inThread));
    expect(viaWorker.vfp!.files[0].index.lineAt(0)).toBe(1);
  });
});
