// Worker-thread entry: runs the TypeScript Services table in a worker without a build step (tsx), as
// findings-worker.mjs does for the checks.
import { register } from 'tsx/esm/api';

register();
await import('./services-worker-main.ts');
