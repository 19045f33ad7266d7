// Worker-thread entry: lets the TypeScript parser run in a worker without a build step (tsx), the
// same way bin/hnsight.mjs runs the CLI.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker-main.ts');
