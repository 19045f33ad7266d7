// The collector a bundle names is told by the files it wrote — files that hold what their name says.
// A folder of binary junk named network.txt, endpoint.txt, policy.txt and vfpOutput.txt was reported
// as "SDN collectlogs.ps1" (review, session 11).
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';

describe('the collector', () => {
  it('is not named for junk under collectlogs file names', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-junk-'));
    try {
      let seed = 7;
      const junk = () => Buffer.from(Array.from({ length: 50_000 }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24));
      for (const n of ['network.txt', 'endpoint.txt', 'policy.txt', 'vfpOutput.txt']) writeFileSync(path.join(dir, n), junk());
      expect((await loadBundle(dir)).meta.collector).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('is still named for a real collectlogs bundle', async () => {
    expect((await loadBundle(path.resolve('test/fixtures/foreign/ws2019-flannel-l2bridge-2020'))).meta.collector).toMatch(/SDN collectlogs\.ps1/);
  });
});

describe('the collector told by a file with no content detector', () => {
  it('hnsportpoolallocs.txt alone still names collectlogs 2024-07 or later (review2)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-coll-'));
    try {
      cpSync(path.resolve('assets/demo/l2bridge-node'), dir, { recursive: true });
      rmSync(path.join(dir, 'windowsServices.txt'));
      expect((await loadBundle(dir)).meta.collector).toBe('SDN collectlogs.ps1 (2024-07 or later)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
