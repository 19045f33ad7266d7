// A load balancer's endpoints missing from a cut endpoint file may exist after the cut: the finding's
// title must not say they "do not exist" while its text says they may (review, session 11).
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { runChecks } from '../../../analysis/checks/index.ts';

describe('lb-stale-dip on a cut endpoint file', () => {
  it('says the endpoints are not in the cut list, not that they do not exist', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-cut-'));
    try {
      cpSync(path.resolve('assets/demo/l2bridge-node'), dir, { recursive: true });
      const f = path.join(dir, 'endpoint.txt');
      const text = readFileSync(f);
      writeFileSync(f, text.subarray(0, Math.floor(text.length / 3)));
      const fs = runChecks(await loadBundle(dir)).filter((x) => x.id === 'lb-stale-dip');
      expect(fs.length).toBeGreaterThan(0);
      for (const x of fs) {
        expect(x.explanation).toMatch(/may exist after the cut/);
        expect(x.title).not.toMatch(/not exist/);
        expect(x.title).toMatch(/not in the cut endpoint list/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
