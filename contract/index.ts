// The API contract between the renderer and its backends (README "Layout", ARCHITECTURE "The contract").
export * from './schemas.ts';
export * from './replies.ts';
export * from './events.ts';
export * from './envelope.ts';
export * from './validate.ts';
export type * from './api.ts';
export { API_METHOD_NAMES, type ApiMethodName } from './methods.ts';
export * from './limits.ts';
