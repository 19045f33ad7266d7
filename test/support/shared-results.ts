// Results of the analysis several test files compute alike, kept per test worker and frozen.
//
// Why: the reach properties (test/unit/reach/invariants, split, partition) each compute the classes of
// every bundle of test/unit/reach/models.ts from its first pod — the same call on equal input, 6–9
// CPU-s a file. With `isolate: false` (vitest.config.ts) a file the worker runs later takes them from
// here.
//
// Why it is safe: what is kept is a result, never a model (docs/testing.md: the analysis keeps what it
// worked out with the model object, so a shared model would hand one test another's answer, budgets
// included). The caller names the input in the key (the bundle's name in models.ts, the source, the
// options), and the analysis is pure, so any file computing that key gets an equal value; the value is
// frozen (test/support/parsed-files.ts deepFreeze): a test that writes to it throws instead of changing
// what the next file reads. test/unit/reach/shared-results.test.ts compares a kept result with one
// computed afresh on a model loaded afresh. HNSIGHT_SHARED_RESULTS=0 turns it off (to measure).
import { deepFreeze } from './parsed-files.ts';

const kept = new Map<string, unknown>();

/** compute()'s value, computed once per worker for this key and frozen. */
export function sharedResult<T>(key: string, compute: () => T): T {
  if (process.env.HNSIGHT_SHARED_RESULTS === '0') return compute();
  if (kept.has(key)) return kept.get(key) as T;
  const v = deepFreeze(compute());
  kept.set(key, v);
  return v;
}
