import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseWindowState, restoreBounds, DEFAULT_SIZE } from '../../../electron/main/window-state.ts';
import { readJsonSync, writeJsonAtomic, writeJsonAtomicSync } from '../../../electron/main/json-file.ts';
import { bundleFromArgv } from '../../../electron/main/args.ts';

const screen = [{ x: 0, y: 0, width: 1920, height: 1040 }];

describe('window state', () => {
  it('parses only well-formed states', () => {
    const s = { bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: true };
    expect(parseWindowState(s)).toEqual(s);
    for (const bad of [undefined, null, 'x', {}, { bounds: { x: 1, y: 1, width: 0, height: 10 }, maximized: false }, { bounds: { x: 'a', y: 1, width: 5, height: 5 }, maximized: false }]) {
      expect(parseWindowState(bad)).toBeUndefined();
    }
  });

  it('restores bounds that are on a display, fitted to it', () => {
    expect(restoreBounds({ bounds: { x: 100, y: 50, width: 1200, height: 800 }, maximized: false }, screen)).toEqual({ bounds: { x: 100, y: 50, width: 1200, height: 800 }, maximized: false });
    // Bigger than the display, hanging off its edge.
    expect(restoreBounds({ bounds: { x: 1800, y: -20, width: 3000, height: 2000 }, maximized: true }, screen)).toEqual({ bounds: { x: 0, y: 0, width: 1920, height: 1040 }, maximized: true });
  });

  it('falls back to the default size when the display is gone or nothing was saved', () => {
    expect(restoreBounds(undefined, screen)).toEqual({ bounds: DEFAULT_SIZE, maximized: false });
    const r = restoreBounds({ bounds: { x: 5000, y: 0, width: 1000, height: 700 }, maximized: false }, screen);
    expect(r.bounds.x).toBeUndefined();
    expect(r.bounds).toMatchObject({ width: 1000, height: 700 });
  });
});

describe('atomic JSON files', () => {
  it('writes through a temp file and leaves no temp behind', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-json-'));
    try {
      const f = path.join(dir, 'sub', 'window-state.json');
      await writeJsonAtomic(f, { a: 1 });
      expect(readJsonSync(f)).toEqual({ a: 1 });
      writeJsonAtomicSync(f, { a: 2 });
      expect(JSON.parse(readFileSync(f, 'utf8'))).toEqual({ a: 2 });
      expect(readdirSync(path.dirname(f))).toEqual(['window-state.json']);
      expect(readJsonSync(path.join(dir, 'missing.json'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bundle path on the command line', () => {
  it('skips the app path in development and switches everywhere', () => {
    expect(bundleFromArgv(['/x/electron', '.', 'assets/demo/l2bridge-node'], { packaged: false, cwd: '/repo' })).toBe(path.resolve('/repo/assets/demo/l2bridge-node'));
    expect(bundleFromArgv(['/x/electron', '/repo'], { packaged: false, cwd: '/repo' })).toBeUndefined();
    expect(bundleFromArgv(['/opt/hnsight/hnsight', '--no-sandbox', '/data/b.zip'], { packaged: true, cwd: '/' })).toBe(path.resolve('/data/b.zip'));
    expect(bundleFromArgv(['/opt/hnsight/hnsight', '--allow-file-access-from-files', 'hnsight://x'], { packaged: true, cwd: '/' })).toBeUndefined();
  });
});
