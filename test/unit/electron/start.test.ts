import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = path.resolve(import.meta.dirname, '../../..');

interface StartModule {
  NO_ELECTRON_NOTICE: string;
  NO_DISPLAY_NOTICE: string;
  decideLaunch(s: { electronBinary: string | null; chromium: string | null; display: boolean; forceBrowser?: boolean; noOpen?: boolean }): { mode: 'electron'; binary: string } | { mode: 'browser'; notice: string | null; openWith: string | null };
  findElectronBinary(o?: { env?: Record<string, string | undefined>; electronDir?: string | null }): { binary: string | null; reason: string | null };
  findChromium(o?: { env?: Record<string, string | undefined>; platform?: string }): string | null;
  hasDisplay(env?: Record<string, string | undefined>, platform?: string): boolean;
  serveUrlFromLine(line: string): string | null;
  chromiumArgs(url: string, profile: string, o?: { root?: boolean }): string[];
  writeLaunchPage(profileDir: string, url: string): string;
  parseStartArgs(argv: string[]): { bundle: string; extra: string[]; unknown: string[]; forceBrowser: boolean; noOpen: boolean };
  fetchElectronBinary(run?: (cmd: string, args: string[], o: object) => { status: number | null; stderr?: string; error?: Error }): string | null;
}

const start = (await import(pathToFileURL(path.join(repo, 'tools/start.mjs')).href)) as StartModule;

describe('npm start: what to launch', () => {
  it('runs Electron when its binary and a display exist', () => {
    expect(start.decideLaunch({ electronBinary: '/e/electron', chromium: '/usr/bin/chromium', display: true })).toEqual({ mode: 'electron', binary: '/e/electron' });
  });

  it('falls back to browser mode with one line when the binary is missing, opening Chromium when it can', () => {
    expect(start.decideLaunch({ electronBinary: null, chromium: '/usr/bin/chromium', display: true })).toEqual({ mode: 'browser', notice: start.NO_ELECTRON_NOTICE, openWith: '/usr/bin/chromium' });
    expect(start.decideLaunch({ electronBinary: null, chromium: '/usr/bin/chromium', display: false })).toEqual({ mode: 'browser', notice: start.NO_ELECTRON_NOTICE, openWith: null });
    expect(start.decideLaunch({ electronBinary: null, chromium: null, display: true })).toEqual({ mode: 'browser', notice: start.NO_ELECTRON_NOTICE, openWith: null });
    expect(start.NO_ELECTRON_NOTICE).not.toContain('\n');
    expect(start.NO_ELECTRON_NOTICE).toMatch(/Electron's binary is not installed.*browser mode/);
  });

  it('uses browser mode when there is no display for a window', () => {
    expect(start.decideLaunch({ electronBinary: '/e/electron', chromium: '/usr/bin/chromium', display: false })).toEqual({ mode: 'browser', notice: start.NO_DISPLAY_NOTICE, openWith: null });
  });

  it('honours --browser and --no-open', () => {
    expect(start.decideLaunch({ electronBinary: '/e/electron', chromium: '/c', display: true, forceBrowser: true })).toEqual({ mode: 'browser', notice: null, openWith: '/c' });
    expect(start.decideLaunch({ electronBinary: null, chromium: '/c', display: true, noOpen: true })).toMatchObject({ mode: 'browser', openWith: null });
  });

  it('parses its arguments, defaulting to the l2bridge demo', () => {
    expect(start.parseStartArgs([])).toMatchObject({ bundle: path.join(repo, 'assets/demo/l2bridge-node'), forceBrowser: false, noOpen: false });
    expect(start.parseStartArgs(['x.zip', '--browser', '--no-open'])).toMatchObject({ bundle: path.resolve('x.zip'), forceBrowser: true, noOpen: true, unknown: [] });
    expect(start.parseStartArgs(['--bogus']).unknown).toEqual(['--bogus']);
  });
});

describe('npm start: finding things', () => {
  it('finds Electron from path.txt without loading the package', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-electron-pkg-'));
    try {
      expect(start.findElectronBinary({ env: {}, electronDir: null }).binary).toBeNull();
      expect(start.findElectronBinary({ env: {}, electronDir: dir })).toEqual({ binary: null, reason: expect.stringMatching(/never downloaded/) });
      writeFileSync(path.join(dir, 'path.txt'), 'electron');
      expect(start.findElectronBinary({ env: {}, electronDir: dir })).toEqual({ binary: null, reason: expect.stringMatching(/is missing/) });
      mkdirSync(path.join(dir, 'dist'));
      writeFileSync(path.join(dir, 'dist', 'electron'), '');
      expect(start.findElectronBinary({ env: {}, electronDir: dir })).toEqual({ binary: path.join(dir, 'dist', 'electron'), reason: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers consistently for this install: a binary that exists, or none and the reason', () => {
    // On these machines node_modules/electron has no dist/ (the binary cannot be downloaded); on a
    // developer's machine it may. Either way the answer must be usable as it is.
    const r = start.findElectronBinary({ env: {} });
    if (r.binary !== null) {
      expect(existsSync(r.binary)).toBe(true);
      expect(r.reason).toBeNull();
    } else expect(r.reason).toMatch(/\w{4,}/);
  });

  it('finds Chromium on PATH or from HNSIGHT_BROWSER', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-path-'));
    try {
      const exe = path.join(dir, 'google-chrome');
      writeFileSync(exe, '#!/bin/sh\n');
      chmodSync(exe, 0o755);
      writeFileSync(path.join(dir, 'chromium'), 'not executable');
      const found = start.findChromium({ env: { PATH: dir }, platform: 'linux' });
      // /usr/bin/chromium wins when installed; otherwise the PATH lookup skips the non-executable file.
      expect([exe, '/usr/bin/chromium']).toContain(found);
      expect(start.findChromium({ env: { HNSIGHT_BROWSER: exe, PATH: '' }, platform: 'linux' })).toBe(exe);
      expect(start.findChromium({ env: { HNSIGHT_BROWSER: path.join(dir, 'nope') }, platform: 'linux' })).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('knows when a display exists', () => {
    expect(start.hasDisplay({}, 'linux')).toBe(false);
    expect(start.hasDisplay({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(start.hasDisplay({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(start.hasDisplay({}, 'win32')).toBe(true);
  });

  it("reads the URL from hnsight serve's line and opens it as an app window", () => {
    expect(start.serveUrlFromLine('hnsight: serving on http://127.0.0.1:41234/?token=abc123')).toBe('http://127.0.0.1:41234/?token=abc123');
    expect(start.serveUrlFromLine('hnsight: building the user interface (once)…')).toBeNull();
    expect(start.serveUrlFromLine('see https://example.com/x')).toBeNull();
    const args = start.chromiumArgs('http://127.0.0.1:1/?token=t', '/tmp/p', { root: false });
    expect(args).toContain('--app=http://127.0.0.1:1/?token=t');
    expect(args).toContain('--user-data-dir=/tmp/p');
    expect(args).not.toContain('--no-sandbox');
    expect(start.chromiumArgs('u', 'p', { root: true })).toContain('--no-sandbox');
  });

  it('hands Chromium the token in a page only this user can read, never on its command line', () => {
    const profile = mkdtempSync(path.join(os.tmpdir(), 'hnsight-start-'));
    try {
      const url = 'http://127.0.0.1:41234/?token=s3cr3t&x="<y>"';
      const page = start.writeLaunchPage(profile, url);
      const file = path.join(profile, 'open-hnsight.html');
      expect(page).toBe(pathToFileURL(file).href);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(profile).mode & 0o077).toBe(0);
      expect(readFileSync(file, 'utf8')).toContain('content="0;url=http://127.0.0.1:41234/?token=s3cr3t&amp;x=&quot;&lt;y>&quot;"');
      const args = start.chromiumArgs(page, profile, { root: false });
      expect(args.join(' ')).not.toContain('s3cr3t');
      // Never overwritten: a file planted there first makes the launch fail, not follow it.
      expect(() => start.writeLaunchPage(profile, url)).toThrow(/EEXIST/);
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  });
});

describe("npm start: Electron's own download, which .npmrc's ignore-scripts skipped", () => {
  it("runs the electron package's install.js once and says in one line why it could not", () => {
    const calls: string[][] = [];
    const failed = start.fetchElectronBinary((cmd, args) => {
      calls.push([cmd, ...args]);
      return { status: 1, stderr: 'HTTPError: Response code 403\n    at x\nRequestError: getaddrinfo ENOTFOUND github.com' };
    });
    expect(calls).toHaveLength(1);
    expect(calls[0][1]).toMatch(/node_modules[\\/]electron[\\/]install\.js$/);
    expect(failed).toBe("Electron's binary could not be downloaded (HTTPError: Response code 403)");
    expect(start.fetchElectronBinary(() => ({ status: 0 }))).toBeNull();
  });
});

describe('npm start: the renderer build', () => {
  it("turns off only Rolldown's plugin-timing warning (machine load, printed raw with colour codes)", async () => {
    const config = (await import(pathToFileURL(path.join(repo, 'vite.config.ts')).href)).default as { build: { rolldownOptions?: { checks?: Record<string, boolean> }; chunkSizeWarningLimit?: number } };
    expect(config.build.rolldownOptions?.checks).toEqual({ bundlerTimings: false });
  });
  it('a server builds a stale renderer in a child process, so the bundler does not stay in its memory', async () => {
    const mod = (await import(pathToFileURL(path.join(repo, 'tools/build-renderer.mjs')).href)) as { buildRendererInChild?: (o?: { force?: boolean }) => Promise<boolean> };
    expect(typeof mod.buildRendererInChild).toBe('function');
    // Measured on the demo with a stale renderer: the `npm start` server held 789 MB RSS building in
    // its own process, 114 MB with the build in a child (tools/build-renderer.mjs). A real build here
    // would rewrite dist/renderer under the end-to-end tests, so the callers are checked instead.
    for (const f of ['cli/commands/serve.ts', 'tools/start.mjs']) {
      const src = readFileSync(path.join(repo, f), 'utf8');
      expect(src, f).toContain('buildRendererInChild');
      expect(src, f).not.toMatch(/\bbuildRenderer\(/);
    }
  });
});
