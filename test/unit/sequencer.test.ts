// The slow-first list (test/sequencer.ts) names test files that exist: a renamed file would silently
// fall back to vitest's order on fresh clones.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SLOW_FIRST } from '../sequencer.ts';

describe('the order test files start in', () => {
  it('lists only files that exist, each once', () => {
    const repo = path.resolve(__dirname, '../..');
    expect(SLOW_FIRST.filter((f) => !existsSync(path.join(repo, f)))).toEqual([]);
    expect(new Set(SLOW_FIRST).size).toBe(SLOW_FIRST.length);
  });
});
