// Open path… in browser mode must accept the demo bundles shipped with the app (the empty state opens
// them already), and nothing else that was not chosen: not a folder beside them, not a link out of them.
import { mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Grants } from '../../../services/backend/grants.ts';
import { DEFAULT_DEMO_DIR } from '../../../services/backend/demo-dir.ts';

describe('Grants: the shipped demos', () => {
  it('opens every shipped demo bundle without --allow, and not as a credential source', async () => {
    const g = new Grants([], [DEFAULT_DEMO_DIR]);
    for (const name of ['overlay-node', 'l2bridge-node']) {
      const p = path.join(DEFAULT_DEMO_DIR, name);
      expect(await g.canOpen(p, []), name).toBe(true);
      expect(await g.canOpen(path.join(p, 'hnsdiag', '..'), []), name).toBe(true);
      expect(await g.credentialSource(path.join(p, 'kubeconfig'), os.tmpdir())).toBeNull();
    }
  });

  it('still refuses what lies outside the demo folder', async () => {
    const g = new Grants([], [DEFAULT_DEMO_DIR]);
    expect(await g.canOpen(path.dirname(DEFAULT_DEMO_DIR), [])).toBe(false);
    expect(await g.canOpen(`${DEFAULT_DEMO_DIR}-other/x`, [])).toBe(false);
    expect(await g.canOpen(os.tmpdir(), [])).toBe(false);
    // A link placed elsewhere and pointing into the demos is fine; one pointing out is judged by its target.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'grants-'));
    symlinkSync(os.tmpdir(), path.join(dir, 'out'));
    expect(await g.canOpen(path.join(dir, 'out'), [])).toBe(false);
  });

  it('without shipped folders (the desktop app, which opens its demos from the menu) refuses them like any path', async () => {
    expect(await new Grants().canOpen(path.join(DEFAULT_DEMO_DIR, 'overlay-node'), [])).toBe(false);
  });

  it('takes another demo folder when given one (hnsight serve with its own demo folder)', async () => {
    const other = mkdtempSync(path.join(os.tmpdir(), 'demos-'));
    const g = new Grants([], [other]);
    expect(await g.canOpen(path.join(other, 'overlay-node'), [])).toBe(true);
    expect(await g.canOpen(path.join(DEFAULT_DEMO_DIR, 'overlay-node'), [])).toBe(false);
  });
});
