// Worker-thread entry of the hand-over test (worker-handover.test.ts): TypeScript through tsx, as the
// backend's worker entries do (services/backend/*-worker.mjs).
import { register } from 'tsx/esm/api';

register();
await import('./node-probe-main.ts');
