// The CLI's code as one module, for esbuild: bin/hnsight.mjs runs its bundle (.cache/workers/,
// services/worker-entry/) when it is current, else this file's import through tsx.
export { main } from '../cli/main.ts';
