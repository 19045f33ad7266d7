// The classes kept per worker (models.ts reachOnce, test/support/shared-results.ts) are those computed
// afresh on a model loaded afresh, for a generated node and a hand-written one; they cannot be changed
// by the file that reads them; another source is another entry.
import { describe, expect, it } from 'vitest';
import { defaultSources, reachFrom } from '../../../analysis/reach/index.ts';
import { allModels, reachOnce } from './models.ts';

describe('reach classes kept per worker', () => {
  const picked = allModels().filter((n) => n.name === 'generated flannel-vxlan' || n.name.endsWith('ws2022-overlay-2024'));

  it('equal those computed afresh, and are frozen', async () => {
    expect(picked).toHaveLength(2);
    for (const n of picked) {
      const m = await n.load();
      const src = defaultSources(m)[0]!.ip;
      const kept = reachOnce(n, m, src);
      expect(reachOnce(n, await n.load(), src)).toBe(kept);
      expect(kept).toEqual(reachFrom(await n.load(), src));
      expect(Object.isFrozen(kept.classes[0])).toBe(true);
      expect(() => {
        (kept.classes as unknown[]).pop();
      }).toThrow(TypeError);
    }
  });

  it('another source is computed, not taken from the entry of the first', async () => {
    const n = picked[0]!;
    const m = await n.load();
    const [a, b] = defaultSources(m);
    expect(b).toBeDefined();
    const ra = reachOnce(n, m, a!.ip);
    const rb = reachOnce(n, m, b!.ip);
    expect(rb).not.toBe(ra);
    expect(rb).toEqual(reachFrom(m, b!.ip));
  });
});
