// The contract's method names (from the zod-free list the preload uses too).
import type { Method } from '../../../contract/api.ts';
import { API_METHOD_NAMES } from '../../../contract/methods.ts';

export const API_METHODS: readonly Method[] = API_METHOD_NAMES;
