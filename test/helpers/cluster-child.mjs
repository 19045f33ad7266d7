// Child-process entry of cluster-child-main.ts: runs its bundle in .cache/workers/ when one is up to date
// (the test run's global setup builds it ahead: test/support/child-entries.ts), else the TypeScript
// through tsx, as load-child.mjs does.
import { runWorkerMain } from '../../services/worker-entry/run-worker-main.mjs';

await runWorkerMain(import.meta.url);
