// The order test files start in. Vitest runs the files that took longest in the last run first (its
// cache in .cache/vite/vitest: vitest.config.ts), so no long file starts last and leaves a core idle at the end;
// a fresh clone has no such cache, and vitest then starts the biggest files first, which put the
// fuzz run (a small file, the longest to run) among the last. Without timings, the files below start
// first: every file that held its worker 20 s or more in a clean-clone `npm test` (2026-11-29 22:00 UTC,
// two cores under a load average of 10–19; HNSIGHT_FILE_CPU's wall time, docs/testing.md "Where the
// time goes"), longest first. That is the time a file holds its worker in the suite — its CPU plus what it
// waits on — which is what the order is for. Only the order depends on this list: a stale entry costs
// time, never a result.
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SLOW_FIRST = [
  'test/fuzz/fuzz.test.ts',
  'test/e2e/reach-compare.test.ts',
  'test/e2e/graph.test.ts',
  'test/unit/server/reach-session.test.ts',
  'test/unit/server/revive-node.test.ts',
  'test/unit/bundle/budgets.test.ts',
  'test/unit/server/bundle-once.test.ts',
  'test/unit/cli/inspect.test.ts',
  'test/unit/reach/matrix-shared.test.ts',
  'test/unit/platforms/platforms.test.ts',
  'test/unit/bundle/vfp-on-demand.test.ts',
  'test/unit/notes/notes.test.ts',
  'test/unit/reach/partition-v6.test.ts',
  'test/unit/report/pdf-layout.test.ts',
  'test/e2e/services-table.test.ts',
  'test/unit/server/reach-api.test.ts',
  'test/unit/live/ssh.test.ts',
  'test/e2e/walk.test.ts',
  'test/unit/hostile/linear-parsers.test.ts',
  'test/unit/reach/diff.test.ts',
  'test/e2e/report.test.ts',
  'test/unit/reach/split.test.ts',
  'test/unit/words/product-words.test.ts',
  'test/unit/cluster/checks.test.ts',
  'test/e2e/reach.test.ts',
  'test/e2e/reach-progressive.test.ts',
  'test/unit/reach/picked-backend.test.ts',
  'test/e2e/app.test.ts',
  'test/unit/electron/build-electron.test.ts',
  'test/unit/audit/reach-cli-text.test.ts',
  'test/unit/model/corrupt-bundles.test.ts',
  'test/e2e/walk-truth.test.ts',
  'test/e2e/two-servers.test.ts',
  'test/e2e/first-hour.test.ts',
  'test/unit/vfp/past-2gib.test.ts',
  'test/e2e/origin.test.ts',
  'test/e2e/walk-cost.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rel = (f: TestSpecification) => path.relative(root, f.moduleId).split(path.sep).join('/');
    const timed = files.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${rel(f)}`));
    if (timed) return sorted;
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.indexOf(rel(f));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    // Stable: the rest keep vitest's order.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
