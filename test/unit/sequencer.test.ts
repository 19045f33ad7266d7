// The order test files start in (test/sequencer.ts): longest first by the figures it has, and its
// table (test/file-seconds.json) names test files that exist — a renamed file would silently start
// where a file of unknown length does.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FILE_SECONDS, longestFirst } from '../sequencer.ts';

describe('the order test files start in', () => {
  it('the table names only files that exist, each with a positive figure', () => {
    const repo = path.resolve(__dirname, '../..');
    expect(Object.keys(FILE_SECONDS).filter((f) => !existsSync(path.join(repo, f)))).toEqual([]);
    expect(Object.entries(FILE_SECONDS).filter(([, s]) => !(s > 0))).toEqual([]);
  });

  it('longest first: a file with a figure of its own by it, else by the table, else by the median', () => {
    const known = Object.keys(FILE_SECONDS);
    const table = Object.values(FILE_SECONDS).sort((a, b) => a - b);
    const median = table[Math.floor(table.length / 2)]!;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof(fc.constantFrom(...known), fc.stringMatching(/^test\/unit\/new-[a-z]{1,6}\.test\.ts$/)), { maxLength: 30 }),
        fc.dictionary(fc.constantFrom(...known), fc.double({ min: 0.01, max: 900, noNaN: true })),
        (files, own) => {
          const seconds = (f: string) => own[f] ?? FILE_SECONDS[f] ?? median;
          const sorted = longestFirst(files, (f) => f, (f) => own[f]);
          expect([...sorted].sort()).toEqual([...files].sort());
          for (let i = 1; i < sorted.length; i++) expect(seconds(sorted[i - 1]!)).toBeGreaterThanOrEqual(seconds(sorted[i]!));
        },
      ),
    );
  });
});
