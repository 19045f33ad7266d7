// The fuzz harness in every test run (issue 15): a fixed number of mutated bundles through the loader
// and every analysis in a child process with a capped heap, finding nothing; every crasher ever saved by
// `npm run fuzz` (test/fuzz/crashers/) replayed, finding nothing either; and the harness itself shown
// to catch what it is there to catch.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CRASHERS, crasherFiles, Harness, readCrasher, saveCrasher } from './harness.ts';
import { repo } from './hostile.ts';
import { BASES, makeCase, MUTATION_NAMES } from './mutate.ts';

/**
 * Fixed seeds: the same cases on every run, so a finding here is reproducible with `--seed`. Seven,
 * picked by a greedy set cover over seeds 7001–7400: between them they put every base bundle, every
 * mutation, a dropped file, a doubled dump and a damaged zip through the loader and every analysis,
 * which took the first 31 seeds from 7001 on ('covers every base and every mutation' below fails if a
 * change to mutate.ts leaves one out). Each case is a whole load and analysis (about a CPU-second), and
 * this run only guards that every kind of damage still goes through cleanly; exploring is
 * `npm run fuzz`'s job, for hours, and every input it ever found broken is replayed one by one below
 * (the saved crashers).
 */
const CI_SEEDS = [7002, 7003, 7004, 7005, 7010, 7019, 7169];

const harness = new Harness({ heapMb: 1024 });
afterAll(() => harness.close());

describe('fuzz: a fixed run', () => {
  it(`${CI_SEEDS.length} mutated bundles: no crash, no hang, no heap exhaustion, no budget spent, no check throwing`, async () => {
    const findings = [];
    for (const seed of CI_SEEDS) {
      const f = await harness.runSeed(seed);
      if (f) findings.push({ ...f, steps: makeCase(seed).steps });
    }
    expect(findings).toEqual([]);
  }, 600_000);

  it('makes a case of every seed (the harness itself never fails)', () => {
    for (let seed = 1; seed < 200_000; seed += 997) expect(() => makeCase(seed)).not.toThrow();
  });

  it('covers every base and every mutation, a dropped file, a doubled dump and a damaged zip', () => {
    const seen = new Set<string>();
    for (const seed of CI_SEEDS) {
      const c = makeCase(seed);
      seen.add(`base ${c.base}`);
      for (const s of c.steps) {
        const m = /^[^:]+: (\w+): /.exec(s);
        if (m) seen.add(m[1]);
        else seen.add(s.split(' ')[0]);
      }
      if (c.zip) seen.add('zip');
    }
    const want = [...BASES.map((b) => `base ${path.relative(repo, b)}`), ...MUTATION_NAMES, 'drop', 'copy', 'zip'];
    expect(want.filter((w) => !seen.has(w))).toEqual([]);
  });

  it('mutates deterministically: a seed is its case', () => {
    const a = makeCase(7001);
    const b = makeCase(7001);
    expect(a.steps).toEqual(b.steps);
    expect(a.files.map(([n, x]) => [n, Buffer.from(x).toString('base64')])).toEqual(b.files.map(([n, x]) => [n, Buffer.from(x).toString('base64')]));
    expect(BASES.some((d) => d.endsWith(a.base))).toBe(true);
  });
});

describe('fuzz: every saved crasher', () => {
  const files = crasherFiles();
  it.each(files.length ? files.map((f) => [path.basename(f), f]) : [['(none saved yet)', '']])('%s replays without a finding', async (_name, file) => {
    if (!file) return;
    expect(await harness.replay(file)).toBeUndefined();
  }, 300_000);
});

describe('fuzz: the harness catches what it is for', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-fuzz-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a crasher saved from a seed replays the same bundle', async () => {
    const file = saveCrasher(7001, { kind: 'crash', source: 'seed 7001', message: 'test' }, dir);
    const c = readCrasher(file);
    expect(c.files.map(([n]) => n)).toEqual(makeCase(7001).files.map(([n]) => n));
    expect(await harness.replay(file)).toBeUndefined();
  });

  it("counts a case's CPU, not the wall time: a child stopped longer than the limit is no hang, a busy one is", async () => {
    const h = new Harness({ hangMs: 1000 });
    const tiny = { replay: { files: [['policy.txt', Buffer.from('[{}]').toString('base64')]] as [string, string][] } };
    try {
      expect(await h.run(tiny, 'warm-up')).toBeUndefined();
      // Stopped (as a process waiting for a core is) for 2.5 s, past the 1 s limit: it spends no CPU.
      const pid = h['child']!.proc.pid!;
      process.kill(pid, 'SIGSTOP');
      const answer = h.run(tiny, 'stopped');
      await new Promise((r) => setTimeout(r, 2500));
      process.kill(pid, 'SIGCONT');
      expect(await answer).toBeUndefined();
      // A case that spends more than 1 s of CPU (this saved input: ≈ 3 CPU-s) is one, and the next
      // case gets a fresh child.
      expect((await h.replay(path.join(CRASHERS, 'hang-1049.json.gz')))?.kind).toBe('hang');
      expect(await h.run(tiny, 'after')).toBeUndefined();
    } finally {
      await h.close();
    }
  }, 120_000);

  it('reports a child whose heap runs out, and goes on with a fresh one', async () => {
    const small = new Harness({ heapMb: 32 });
    try {
      // Three million load balancers do not fit in a 32 MB heap.
      const huge = Buffer.from('[' + '{"ID":"x"},'.repeat(3_000_000) + '{}]').toString('base64');
      const f = await small.run({ replay: { files: [['policy.txt', huge]] } }, 'huge');
      expect(f?.kind).toBe('memory');
    } finally {
      await small.close();
    }
    // The shared harness still answers.
    expect(await harness.runSeed(CI_SEEDS[0])).toBeUndefined();
  }, 120_000);
});
