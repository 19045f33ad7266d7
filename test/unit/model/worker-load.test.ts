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

describe('parsed ports kept by getPolicy', () => {
  it('keeps the most recently used ports up to cacheRules and parses a dropped one again, the same', async () => {
    const m = await loadBundle(demo);
    const ports = m.ports!.filter((p) => (p.policy?.rules ?? 0) > 10).slice(0, 3);
    expect(ports.length).toBe(3);
    const vfp = m.vfp!;
    vfp.cacheRules = ports[0].policy!.rules + ports[1].policy!.rules + ports[2].policy!.rules - 1;
    const a = vfp.getPolicy(ports[0].key)!;
    const b = vfp.getPolicy(ports[1].key)!;
    expect(vfp.getPolicy(ports[0].key)).toBe(a); // kept, and now the most recent
    vfp.getPolicy(ports[2].key); // over the limit: the least recently used (b) goes
    expect(vfp.getPolicy(ports[0].key)).toBe(a);
    const b2 = vfp.getPolicy(ports[1].key)!;
    expect(b2).not.toBe(b);
    expect(JSON.parse(JSON.stringify(b2))).toEqual(JSON.parse(JSON.stringify(b)));
  });
});
