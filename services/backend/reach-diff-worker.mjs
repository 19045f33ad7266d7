// Worker-thread entry of reach-diff-worker-main.ts: runs its bundle in .cache/workers/ when the main
// thread built one and no input changed since, else the TypeScript through tsx, without a build step
// (services/worker-entry/README.md).
import { runWorkerMain } from '../worker-entry/run-worker-main.mjs';

await runWorkerMain(import.meta.url);
