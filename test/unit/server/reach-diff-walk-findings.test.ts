// The walks side by side in Compare carry the findings on their path, as the main walk view's do
// (services/backend/reach-diff-worker-main.ts joins each side's own checks with
// analysis/walk/findings-on-path.ts). A node before and after one fault (tools/gen-bundle.ts --fault
// blocked-port, same seed): the blocked VFP port is a finding of B's checks, on the path of the packets
// it now drops — on B's walk, and not on A's, where nothing is blocked. Each change also says what its
// packets are addressed to (the list groups by it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReachDiffs } from '../../../services/backend/reach-diffs.ts';
import { changeFlow, changeKind, type ReachDiffView } from '../../../analysis/view-models/reach-diff-view.ts';
import { DESTINATION_KINDS } from '../../../analysis/view-models/reach-change-destination.ts';

const gen = (out: string, ...args: string[]) => execFileSync(process.execPath, ['--import', 'tsx', 'tools/gen-bundle.ts', '--out', out, '--seed', '7', '--pods', '2', '--services', '4', ...args], { stdio: 'pipe' });

let dir: string;
let diffs: ReachDiffs;
let view: ReachDiffView;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-rd-findings-'));
  gen(path.join(dir, 'before'));
  gen(path.join(dir, 'after'), '--fault', 'blocked-port');
  diffs = new ReachDiffs(undefined, { maxMs: 120_000 });
  view = await diffs.get('j', { pathA: path.join(dir, 'before'), pathB: path.join(dir, 'after') });
}, 240_000);

afterAll(() => {
  diffs?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Compare: the walks side by side with the findings on their path', () => {
  it('the blocked port is on the after walk only', async () => {
    const worse = view.changed.filter((c) => changeKind(c) === 'worse' && c.after.verdict === 'dropped');
    expect(worse.length).toBeGreaterThan(0);
    for (const c of worse.slice(0, 3)) {
      const a = await diffs.walk('j', 'a', changeFlow(c, 'a'));
      const b = await diffs.walk('j', 'b', changeFlow(c, 'b'));
      const blocked = (b.findings ?? []).filter((f) => f.severity === 'error' && /blocked/i.test(f.title));
      expect(blocked.length).toBeGreaterThan(0);
      // The verdict says it, as the main walk view does ("Dropped, and …").
      expect(b.verdictCaveat?.severity).toBe('error');
      const keys = new Set((a.findings ?? []).map((f) => f.key));
      for (const f of blocked) expect(keys.has(f.key)).toBe(false);
      expect((a.findings ?? []).some((f) => /blocked/i.test(f.title))).toBe(false);
    }
  }, 120_000);

  it('every change says what kind of destination its packets go to', () => {
    const kinds = new Set(DESTINATION_KINDS.map((k) => k.kind));
    for (const c of view.changed) expect(kinds.has(c.to!.kind)).toBe(true);
    // The pair's changes reach pods and Services, not only "other addresses".
    expect(view.changed.some((c) => c.to!.kind !== 'other')).toBe(true);
  });
});
