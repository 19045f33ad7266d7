import { expect, it } from 'vitest';
import { METHODS } from '../../../contract/api.ts';
import { API_METHODS } from '../../../renderer/src/api/methods.ts';

it('the renderer knows every method of the contract, and no other', () => {
  expect([...API_METHODS].sort()).toEqual([...METHODS].sort());
});
