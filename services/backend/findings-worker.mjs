// Worker-thread entry: lets the TypeScript checks run in a worker without a build step (tsx), the same
// way services/bundle/parse-worker.mjs runs the parser.
import { register } from 'tsx/esm/api';

register();
await import('./findings-worker-main.ts');
