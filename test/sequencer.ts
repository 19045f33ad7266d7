// The order test files start in. Vitest runs the files that took longest in the last run first (its
// cache in node_modules/.vite/vitest), so no long file starts last and leaves a core idle at the end;
// a fresh clone has no such cache, and vitest then starts the biggest files first, which put the
// fuzz run (a small file, 40 s of work) among the last. Without timings, the files below start first:
// longest first by their own CPU time (measured one file at a time on 2026-11-29, less the fixed cost
// of a run: docs/testing.md, "Where the time goes"), then the other files over 5 s in the run before.
// Only the order depends on this list: a stale entry costs time, never a result.
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SLOW_FIRST = [
  'test/fuzz/fuzz.test.ts',
  'test/unit/cli/inspect.test.ts',
  'test/unit/server/bundle-once.test.ts',
  'test/e2e/graph.test.ts',
  'test/unit/notes/notes.test.ts',
  'test/unit/platforms/platforms.test.ts',
  'test/unit/bundle/budgets.test.ts',
  'test/unit/words/product-words.test.ts',
  'test/unit/reach/invariants.test.ts',
  'test/unit/server/reach-session.test.ts',
  'test/unit/live/collect.test.ts',
  'test/unit/report/pdf-layout.test.ts',
  'test/unit/model/corrupt-bundles.test.ts',
  'test/unit/live/ssh.test.ts',
  'test/e2e/walk-truth.test.ts',
  'test/e2e/walk.test.ts',
  'test/e2e/report.test.ts',
  'test/e2e/reach.test.ts',
  'test/e2e/app.test.ts',
  'test/e2e/keyboard.test.ts',
  'test/e2e/cluster.test.ts',
  'test/e2e/origin.test.ts',
  'test/e2e/findings.test.ts',
  'test/e2e/platform-timeline.test.ts',
  'test/e2e/connect.test.ts',
  'test/e2e/two-servers.test.ts',
  'test/e2e/paste.test.ts',
  'test/unit/hostile/linear-redact.test.ts',
  'test/unit/report/redact-kinds.test.ts',
  'test/unit/hostile/linear-parsers.test.ts',
  'test/unit/model/generated-bundles.test.ts',
  'test/unit/cluster/checks.test.ts',
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
