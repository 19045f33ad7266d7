// The child processes the tests start from TypeScript, each as an entry `<name>.mjs` beside its
// `<name>-main.ts` (the convention of the app's worker entries: services/worker-entry/README.md). The
// test run's global setup builds their bundles ahead, beside the app's workers, so each start runs the
// bundle instead of compiling the TypeScript through tsx again (≈ 0.8–1.1 CPU-s a start, measured
// 2026-11-30: docs/testing.md); an entry whose inputs changed since runs through tsx, as before.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const TEST_CHILD_ENTRIES = ['test/fuzz/child.mjs', 'test/helpers/load-child.mjs', 'test/helpers/cluster-child.mjs', 'test/unit/notes/writer-child.mjs', 'test/unit/notes/racer-child.mjs'].map((f) => path.join(repo, f));
