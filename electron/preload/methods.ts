// The contract's method names for the sandboxed preload, which is bundled into one small file and
// must not carry the zod schemas (main validates).
export { API_METHOD_NAMES as PRELOAD_METHODS } from '../../contract/methods.ts';
