// The tests' child processes start from a bundle (test/support/child-entries.ts): each entry has its
// TypeScript main beside it, and the run's global setup has built a bundle for each that is current —
// so `node <entry>.mjs` runs it without compiling anything (run-worker-main.mjs), as the app's workers do.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundlePaths, freshBundle } from '../../services/worker-entry/fresh-bundle.mjs';
import { TEST_CHILD_ENTRIES } from '../support/child-entries.ts';

describe("the tests' child processes", () => {
  it('each entry has its main beside it', () => {
    expect(TEST_CHILD_ENTRIES.filter((e) => !existsSync(e) || !existsSync(bundlePaths(e).main))).toEqual([]);
  });

  it.skipIf(process.env.HNSIGHT_WORKER_BUNDLES === '0')('each runs a current bundle in this run (built by the global setup)', () => {
    expect(TEST_CHILD_ENTRIES.filter((e) => !freshBundle(e))).toEqual([]);
  });
});
