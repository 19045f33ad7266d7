// Child-process entry of load-child-main.ts: runs its bundle in .cache/workers/ when one is up to date
// (the test run's global setup builds it ahead: test/support/child-entries.ts), else the TypeScript
// through tsx — about 0.8–1.1 CPU-s less per start than `node --import tsx` (docs/testing.md).
import { runWorkerMain } from '../../services/worker-entry/run-worker-main.mjs';

await runWorkerMain(import.meta.url);
