import { describe, expect, it } from 'vitest';
import { METHODS } from '../../../contract/api.ts';
import { PRELOAD_METHODS } from '../../../electron/preload/methods.ts';

describe('preload method list', () => {
  it('equals the contract METHODS (same names, no duplicates)', () => {
    expect([...PRELOAD_METHODS].sort()).toEqual([...METHODS].sort());
    expect(new Set(PRELOAD_METHODS).size).toBe(PRELOAD_METHODS.length);
  });
});
