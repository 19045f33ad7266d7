import { afterAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMOS } from '../../../tools/gen/index.ts';
import { cleanupTemps, generate, listFiles } from './helpers.ts';

afterAll(cleanupTemps);

const ASSETS = join(import.meta.dirname, '../../../assets/demo');

describe('committed demo bundles', () => {
  for (const d of DEMOS) {
    it(`assets/demo/${d.dir} equals a fresh generation (regenerate with: npm run gen -- --demo)`, async () => {
      const committed = join(ASSETS, d.dir);
      const fresh = await generate(d.spec, d.opts);
      expect(await listFiles(committed)).toEqual(fresh.files);
      let total = 0;
      for (const f of fresh.files) {
        const c = await readFile(join(committed, f));
        total += c.length;
        expect(c.equals(await fresh.raw(f)), `${d.dir}/${f} differs from a fresh generation`).toBe(true);
      }
      expect(total).toBeLessThan(2 * 1024 * 1024);
    });
  }

  it('demo shapes: l2bridge v2 get-rule-counter, overlay v1 list-rule with remote endpoints', async () => {
    const l2 = DEMOS.find((d) => d.dir === 'l2bridge-node')!;
    const ov = DEMOS.find((d) => d.dir === 'overlay-node')!;
    expect([l2.spec.network, l2.spec.schema, l2.spec.vfpGeneration]).toEqual(['l2bridge', 2, 'get-rule-counter']);
    expect([ov.spec.network, ov.spec.schema, ov.spec.vfpGeneration]).toEqual(['overlay', 1, 'list-rule']);
    const g = await generate(ov.spec, ov.opts);
    expect(g.node.expected.counts.remoteEndpoints).toBeGreaterThan(0);
    expect(await g.text('endpoint.txt')).toContain('"Type":  "PA"');
  });
});
