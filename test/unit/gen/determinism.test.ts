import { afterAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildNode, writeBundle } from '../../../tools/gen/index.ts';
import { SMALL, cleanupTemps, generate, tempDir } from './helpers.ts';

afterAll(cleanupTemps);

describe('generator determinism', () => {
  it('same seed gives identical bytes in every file', async () => {
    const a = await generate(SMALL);
    const b = await generate(SMALL);
    expect(b.files).toEqual(a.files);
    for (const f of a.files) expect((await b.raw(f)).equals(await a.raw(f)), f).toBe(true);
    expect(b.node.expected).toEqual(a.node.expected);
  });

  it('same seed gives identical zip bytes (both layouts)', async () => {
    for (const zip of ['flat', 'top-folder'] as const) {
      const d1 = await tempDir();
      const d2 = await tempDir();
      const r1 = await writeBundle(buildNode(SMALL), d1, { zip });
      const r2 = await writeBundle(buildNode(SMALL), d2, { zip });
      expect((await readFile(r2.path)).equals(await readFile(r1.path))).toBe(true);
      expect(r1.path.slice(d1.length)).toBe(r2.path.slice(d2.length));
    }
  });

  it('a different seed gives different objects', async () => {
    const a = buildNode(SMALL);
    const b = buildNode({ ...SMALL, seed: SMALL.seed + 1 });
    expect(b.endpoints.map((e) => e.id)).not.toEqual(a.endpoints.map((e) => e.id));
  });

  it('never uses Math.random', async () => {
    const src = await Promise.all(
      ['prng.ts', 'build.ts', 'vfpmodel.ts', 'write.ts', 'files/hns.ts', 'files/vfp.ts', 'files/ip.ts', 'files/routes.ts', 'files/extras.ts', 'files/hnsdiag.ts'].map((f) =>
        readFile(join(import.meta.dirname, '../../../tools/gen', f), 'utf8'),
      ),
    );
    for (const s of src) expect(s).not.toMatch(/Math\.random\s*\(/);
  });
});
