import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { METHODS } from '../../../contract/index.ts';

const repo = path.resolve(import.meta.dirname, '../../..');
let tmp: string;
let out: string;

function requires(file: string): string[] {
  return [...new Set([...readFileSync(file, 'utf8').matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]))].sort();
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'hnsight-electron-build-'));
  out = path.join(tmp, 'electron');
  const { buildElectron } = (await import(pathToFileURL(path.join(repo, 'tools/build-electron.mjs')).href)) as { buildElectron(o: { outdir: string }): Promise<unknown[]> };
  await buildElectron({ outdir: out });
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('tools/build-electron.mjs', () => {
  it('produces the main and preload bundles and every worker the backend starts beside main.cjs', () => {
    for (const f of ['main.cjs', 'preload.cjs']) expect(existsSync(path.join(out, f)), f).toBe(true);
    // Every `new URL('./<name>-worker.mjs', import.meta.url)` in services/ resolves beside main.cjs once bundled.
    const started = new Set<string>();
    for (const dir of [path.join(repo, 'services/backend'), path.join(repo, 'services/bundle')])
      for (const f of readdirSync(dir)) {
        if (!f.endsWith('.ts')) continue;
        for (const m of readFileSync(path.join(dir, f), 'utf8').matchAll(/new URL\('\.\/([\w-]+-worker\.mjs)'/g)) started.add(m[1]!);
      }
    expect(started.size).toBeGreaterThanOrEqual(5);
    for (const f of started) expect(existsSync(path.join(out, f)), f).toBe(true);
  });

  it('bundles the preload into one file that requires only electron', () => {
    expect(requires(path.join(out, 'preload.cjs'))).toEqual(['electron']);
    const src = readFileSync(path.join(out, 'preload.cjs'), 'utf8');
    expect(src).toContain('exposeInMainWorld("hnsight"');
    // One global only: dropped files go through the contract (openFile → openDropped), events through subscribe.
    expect(src).not.toContain('hnsightFiles');
    expect(src).toContain('"hnsight:event"');
    expect(src).toContain('"hnsight:openDropped"');
    expect(src).not.toMatch(/zod|safeParse/);
    expect(src.length).toBeLessThan(20_000);
    for (const m of METHODS) expect(src, m).toContain(JSON.stringify(m));
  });

  it('bundles the main process: electron external, every package inlined, no import.meta left', () => {
    const deps = requires(path.join(out, 'main.cjs'));
    expect(deps).toContain('electron');
    // Live collection adds the network built-ins (WinRM over http/net/tls, ssh2, the Kubernetes client).
    const builtins = new Set(['events', 'fs', 'path', 'stream', 'url', 'util', 'zlib', 'os', 'crypto', 'buffer', 'worker_threads', 'child_process', 'assert', 'string_decoder', 'net', 'dns', 'http', 'https', 'tls', 'punycode', 'vm', 'tty', 'querystring']);
    // Optional modules that live collection's packages require inside try/catch and do without: ssh2's
    // native add-ons (sshcrypto, cpu-features), ws's bufferutil / utf-8-validate, node-fetch's encoding.
    const optionalNative = (d: string) => /(^|\/)(sshcrypto|cpufeatures)\.node$/.test(d) || ['bufferutil', 'utf-8-validate', 'encoding'].includes(d);
    for (const d of deps) expect(d === 'electron' || d.startsWith('node:') || builtins.has(d) || optionalNative(d), d).toBe(true);
    const src = readFileSync(path.join(out, 'main.cjs'), 'utf8');
    expect(src).not.toMatch(/import\.meta/);
    expect(src).toContain('"hnsight:command"');
  });

  it('builds a parser worker that runs in a plain worker thread', async () => {
    const file = path.join(repo, 'assets/demo/l2bridge-node/endpoint.txt');
    const w = new Worker(path.join(out, 'parse-worker.mjs'));
    try {
      const reply = await new Promise<{ id: number; parsed?: { name?: string; content?: { type?: string } }; error?: string }>((resolve, reject) => {
        w.once('message', resolve);
        w.once('error', reject);
        w.postMessage({ id: 7, name: 'endpoint.txt', path: file });
      });
      expect(reply.error).toBeUndefined();
      expect(reply.id).toBe(7);
      expect(reply.parsed).toBeDefined();
    } finally {
      await w.terminate();
    }
  });

  it('runs the built main process against a stand-in electron module', () => {
    // dist/electron/main.cjs loads dist/renderer/index.html: give it one beside the temp build.
    mkdirSync(path.join(tmp, 'renderer'), { recursive: true });
    writeFileSync(path.join(tmp, 'renderer', 'index.html'), '<!doctype html><title>stub</title>');
    const userData = path.join(tmp, 'userData');
    mkdirSync(userData);
    const bundle = path.join(repo, 'assets/demo/l2bridge-node');
    const r = spawnSync(process.execPath, [path.join(import.meta.dirname, 'fixtures/run-main.cjs'), path.join(out, 'main.cjs'), bundle], {
      encoding: 'utf8',
      env: { ...process.env, FAKE_ELECTRON_USERDATA: userData },
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o.error).toBeUndefined();
    expect(o.sandbox).toBe(true);
    expect(o.singleInstance).toBe(true);
    expect(o.windows).toBe(1);
    // The page comes from the app's own scheme (Electron security checklist 18), served from dist/renderer only.
    expect(o.loaded).toBe('app://hnsight/index.html');
    expect(o.schemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    expect(o.appIndex).toEqual({ status: 200, text: '<!doctype html><title>stub</title>' });
    // The climb to the built main.cjs beside dist/renderer: normalised away or refused, never served.
    expect([403, 404]).toContain(o.appClimb.status);
    expect(o.appClimb.text).not.toMatch(/require|use strict/);
    // A file:// page is not ours any more.
    expect(o.fileSender.error).toMatch(/^refused: /);
    expect(o.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, preload: path.join(out, 'preload.cjs') });
    expect(o.channels).toEqual(METHODS.map((m) => 'hnsight:' + m).sort());
    expect(o.menu).toEqual(['&File', '&Edit', '&View', 'windowMenu', '&Help']);
    expect(o.remoteBlocked).toContain('https://*/*');
    expect(o.info.value).toMatchObject({ mode: 'electron', nativeDialogs: true, initialBundle: bundle, version: '0.0.0-test' });
    expect(o.badArgs.error).toMatch(/^bad arguments for openBundle: path/);
    expect(o.badSender.error).toMatch(/^refused: /);
    expect(o.otherWindow.error).toMatch(/^refused: /);
    expect(o.cameraDenied).toBe(false);
    expect(o.windowOpen).toEqual({ action: 'deny' });
    expect(o.navigationPrevented).toBe(true);
  });
});
