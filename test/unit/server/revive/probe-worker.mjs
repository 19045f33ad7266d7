// Worker-thread entry of the revival test (revive-node.test.ts): TypeScript through tsx, as the
// backend's worker entries do (services/backend/*-worker.mjs).
import { register } from 'tsx/esm/api';

register();
await import('./probe-main.ts');
