// Two rules of the source layout (CONTRIBUTING: small, named modules): outside the renderer's components
// and hooks (named after their export, see test/unit/renderer/file-names.test.ts) every file name is
// kebab-case, and no source file in the layers that hold logic grows past 600 lines (split it by
// responsibility instead).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCE = /\.(ts|tsx|mjs)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name === 'node_modules' || e.name === 'dist' ? [] : e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

const sourcesIn = (dirs: string[]): string[] => dirs.flatMap((d) => filesUnder(path.join(ROOT, d))).filter((f) => SOURCE.test(f));

/** Kebab-case: lower-case words, digits, dashes; dots only before the extension parts (`x.test.ts`, `x.d.ts`). */
export const isKebab = (base: string): boolean => /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*$/.test(base);

/** Files over the limit, as `path (lines)`. */
function tooLong(files: { file: string; text: string }[], limit: number): string[] {
  return files.map(({ file, text }) => ({ file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) })).filter((x) => x.lines > limit).map((x) => `${x.file} (${x.lines})`);
}

describe('file names', () => {
  it('tells kebab-case from other names', () => {
    expect(['ps-json.ts', 'parse-hns-file.ts', 'ip.test.ts', 'index.ts', 'v4-v6.ts', 'env.d.ts'].filter((n) => !isKebab(n))).toEqual([]);
    expect(['psJson.ts', 'parseHnsFile.ts', 'Table_Fallback.ts', 'a--b.ts', '-a.ts'].filter(isKebab)).toEqual([]);
  });

  it('names every file kebab-case in parsers, analysis, services, cli, contract, electron and tools', () => {
    const files = sourcesIn(['parsers', 'analysis', 'services', 'cli', 'contract', 'electron', 'tools']);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => !isKebab(path.basename(f))).map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('names every renderer file kebab-case except components (.tsx) and hooks (use*.ts)', () => {
    const files = sourcesIn(['renderer/src']).filter((f) => !f.endsWith('.tsx') && !/^use[A-Z]/.test(path.basename(f)));
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => !isKebab(path.basename(f))).map((f) => path.relative(ROOT, f))).toEqual([]);
  });
});

describe('file length', () => {
  it('counts lines the way an editor shows them', () => {
    expect(tooLong([{ file: 'a.ts', text: 'x\n'.repeat(600) }], 600)).toEqual([]);
    expect(tooLong([{ file: 'b.ts', text: 'x\n'.repeat(601) }], 600)).toEqual(['b.ts (601)']);
    expect(tooLong([{ file: 'c.ts', text: 'x\n'.repeat(600) + 'y' }], 600)).toEqual(['c.ts (601)']);
  });

  it('keeps every source file in parsers, analysis, services and renderer at 600 lines or fewer', () => {
    const files = sourcesIn(['parsers', 'analysis', 'services', 'renderer/src']).map((f) => ({ file: path.relative(ROOT, f), text: readFileSync(f, 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(tooLong(files, 600)).toEqual([]);
  });
});
