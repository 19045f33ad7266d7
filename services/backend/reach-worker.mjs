// Worker-thread entry: runs the TypeScript reachability in a worker without a build step (tsx), as
// findings-worker.mjs does for the checks.
import { register } from 'tsx/esm/api';

register();
await import('./reach-worker-main.ts');
