// The shared corpus of real outputs (/work/shared/corpus, each file with a `.src`) lives beside the
// repository: `../shared/corpus` from the repo root (from a worktree under wt/, one level further up).
// Tests read it in place; it is never copied into the project.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Where the corpus is: `HNSIGHT_CORPUS`, else `../shared/corpus` beside the repository (or beside its
 * parent, for a worktree). Undefined when it is nowhere: the tests that read it are then skipped, and
 * this says so once, so a missing corpus is never mistaken for a passing one.
 */
export const CORPUS = [process.env.HNSIGHT_CORPUS, path.resolve(repo, '../shared/corpus'), path.resolve(repo, '../../shared/corpus')].find(
  (d): d is string => !!d && existsSync(path.join(d, 'README.md')),
);
if (!CORPUS) console.warn('hnsight tests: the shared corpus (../shared/corpus beside the repository, or HNSIGHT_CORPUS) is absent; the tests that read it are skipped.');

export function corpusBytes(name: string): Uint8Array {
  if (!CORPUS) throw new Error('the shared corpus (../shared/corpus) is not beside the repository');
  return readFileSync(path.join(CORPUS, name));
}

export const corpusText = (name: string): string => new TextDecoder().decode(corpusBytes(name));
