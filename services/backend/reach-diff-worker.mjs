// Worker-thread entry: runs the TypeScript reachability comparison in a worker without a build step
// (tsx), as reach-worker.mjs does for the matrix.
import { register } from 'tsx/esm/api';

register();
await import('./reach-diff-worker-main.ts');
