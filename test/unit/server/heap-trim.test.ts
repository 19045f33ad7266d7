// The reachability worker collects its garbage between slices once its heap has grown past a headroom
// (services/backend/heap-trim.ts; issue #27 point 2: that garbage was the server's peak). Runs where
// the server runs: without --expose-gc.
import { describe, expect, it } from 'vitest';
import { getHeapStatistics } from 'node:v8';
import { heapTrim } from '../../../services/backend/heap-trim.ts';

const used = () => getHeapStatistics().used_heap_size;

describe('heap trim', () => {
  it('collects once the heap grew past the headroom, and the garbage is gone', () => {
    const trim = heapTrim(16 * 2 ** 20);
    expect(trim.maybe()).toBe(false);
    let junk: string[] | undefined = Array.from({ length: 400_000 }, (_, i) => `garbage ${i} `.repeat(4));
    expect(junk.length).toBe(400_000);
    const before = used();
    junk = undefined;
    expect(trim.maybe()).toBe(true);
    expect(trim.runs).toBe(1);
    expect(used()).toBeLessThan(before - 16 * 2 ** 20);
    // Below the headroom again: nothing to do.
    expect(trim.maybe()).toBe(false);
  });

  it('does nothing while the heap stays within the headroom', () => {
    let size = 100;
    const trim = heapTrim(10, () => size);
    size = 110;
    expect(trim.maybe()).toBe(false);
    expect(trim.runs).toBe(0);
  });
});
