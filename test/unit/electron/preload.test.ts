import { describe, expect, it } from 'vitest';
import { METHODS } from '../../../electron/api-contract.ts';
import { PRELOAD_METHODS } from '../../../electron/preload/methods.ts';

describe('preload method list', () => {
  it('equals the contract METHODS, in order', () => {
    expect([...PRELOAD_METHODS]).toEqual(METHODS);
  });
});
