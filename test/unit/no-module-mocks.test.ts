// The suite runs without per-file isolation (vitest.config.ts): a test file that mocked a module or
// stubbed a global would change what the files after it see. This keeps that from creeping in.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    if (n === 'fixtures' || n === 'node_modules') return [];
    return statSync(p).isDirectory() ? testFiles(p) : /\.test\.ts$/.test(n) ? [p] : [];
  });
}

it('no test file mocks modules, stubs globals or env, or changes the working folder', () => {
  const banned = /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(|process\.chdir\(/;
  const offenders = testFiles(root).filter((f) => f !== import.meta.filename && banned.test(readFileSync(f, 'utf8')));
  expect(offenders.map((f) => path.relative(root, f))).toEqual([]);
});
