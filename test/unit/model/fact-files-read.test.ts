// Files the analysis reads a fact from are "read", not "listed only": the netsh port ranges feed the
// port-capacity check (both files together), kubeclusterconfig.json the CNI name and Service range
// (review, session 11: dynamicportrange.txt and excludedportrange.txt were counted as listed only).
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';

const WS2019 = path.resolve('test/fixtures/foreign/ws2019-flannel-l2bridge-2020');
const used = (m: Awaited<ReturnType<typeof loadBundle>>, name: string) => m.files.find((f) => f.name === name)?.used;

describe('fact files', () => {
  it('the two netsh port-range files are read when both are there', async () => {
    const m = await loadBundle(WS2019);
    expect(used(m, 'dynamicportrange.txt')).toBe(true);
    expect(used(m, 'excludedportrange.txt')).toBe(true);
  });
  it('one alone is only listed (the check needs both)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-netsh-'));
    try {
      cpSync(path.join(WS2019, 'dynamicportrange.txt'), path.join(dir, 'dynamicportrange.txt'));
      cpSync(path.join(WS2019, 'endpoint.txt'), path.join(dir, 'endpoint.txt'));
      expect(used(await loadBundle(dir), 'dynamicportrange.txt')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
