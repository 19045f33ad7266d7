// The order test files start in: longest first, so that the run's last files are short and neither of
// the two workers waits long, idle, for the other to finish (vitest hands each file to whichever worker
// is free; docs/testing.md "Where the time goes"). How long a file takes is read from, in this order:
// vitest's own cache (this checkout's last run, in .cache/vite/vitest: vitest.config.ts), then
// test/file-seconds.json — the seconds each file held its worker in a measured clean-clone run, which
// is what a fresh clone (CI) has — and, for a file in neither (new since), the median of the table.
// Vitest's own order without a cache is by file size, which put short, large files first and long,
// small ones (the fuzz run) last. Only the order depends on these figures: a stale one costs time, never
// a result. test/support/file-seconds.ts writes the table from a run with HNSIGHT_FILE_CPU.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each test file held its worker in the measured run (repository-relative, `/`-separated). */
export const FILE_SECONDS: Record<string, number> = JSON.parse(readFileSync(new URL('./file-seconds.json', import.meta.url), 'utf8')) as Record<string, number>;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
};
const UNKNOWN_S = median(Object.values(FILE_SECONDS));

/** Longest first; equal figures by path, so the order is the same from run to run. */
export function longestFirst<T>(files: T[], name: (f: T) => string, seconds: (f: T) => number | undefined): T[] {
  const s = new Map(files.map((f) => [f, seconds(f) ?? FILE_SECONDS[name(f)] ?? UNKNOWN_S]));
  return [...files].sort((a, b) => s.get(b)! - s.get(a)! || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
}

export default class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rel = (f: TestSpecification) => path.relative(root, f.moduleId).split(path.sep).join('/');
    const cached = (f: TestSpecification) => {
      const ms = this.ctx.cache.getFileTestResults(`${f.project.name}:${rel(f)}`)?.duration;
      return typeof ms === 'number' && ms > 0 ? ms / 1000 : undefined;
    };
    return Promise.resolve(longestFirst(files, rel, cached));
  }
}
