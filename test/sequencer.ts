// The order test files start in. Vitest runs the files that took longest in the last run first (its
// cache in node_modules/.vite/vitest), so no long file starts last and leaves a core idle at the end;
// a fresh clone has no such cache, and vitest then starts the biggest files first, which put the
// fuzz run (a small file, 40 s of work) among the last. Without timings, the files below start first:
// every file that ran 20 s or more in a clean-clone `npm test` (2026-11-29 12:26 UTC, two cores,
// vitest's per-file duration; docs/testing.md "Where the time goes"), longest first. That is the
// time a file holds its worker in the suite — its CPU plus what it waits on — which is what the order
// is for. Only the order depends on this list: a stale entry costs time, never a result.
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SLOW_FIRST = [
  'test/unit/bundle/vfp-on-demand.test.ts',
  'test/e2e/reach-compare.test.ts',
  'test/unit/hostile/linear-redact.test.ts',
  'test/unit/reach/partition.test.ts',
  'test/e2e/services-table.test.ts',
  'test/e2e/connect.test.ts',
  'test/fuzz/fuzz.test.ts',
  'test/unit/cluster/checks.test.ts',
  'test/e2e/first-hour.test.ts',
  'test/e2e/two-servers.test.ts',
  'test/e2e/paste.test.ts',
  'test/e2e/reach-progressive.test.ts',
  'test/unit/reach/split.test.ts',
  'test/unit/cluster/model.test.ts',
  'test/unit/electron/build-electron.test.ts',
  'test/unit/live/ssh.test.ts',
  'test/e2e/graph.test.ts',
  'test/unit/server/services-worker.test.ts',
  'test/unit/vfp/properties.test.ts',
  'test/unit/server/reach-api.test.ts',
  'test/unit/walk/walk-properties.test.ts',
  'test/e2e/findings.test.ts',
  'test/unit/cli/trace.test.ts',
  'test/unit/k8s/nodes-routes.test.ts',
  'test/unit/reach/diff.test.ts',
  'test/unit/notes/notes.test.ts',
  'test/unit/k8s/service-states.test.ts',
  'test/e2e/walk-findings.test.ts',
  'test/unit/walk/findings-on-path.test.ts',
  'test/unit/topology/partial.test.ts',
  'test/e2e/empty.test.ts',
  'test/unit/server/bundle-once.test.ts',
  'test/unit/server/capabilities.test.ts',
  'test/unit/report/cluster-report.test.ts',
  'test/e2e/cluster.test.ts',
  'test/unit/report/redact-kinds.test.ts',
  'test/unit/walk/scenarios.test.ts',
  'test/unit/topology/grouping.test.ts',
  'test/unit/hostile/linear-parsers.test.ts',
  'test/e2e/reload.test.ts',
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
