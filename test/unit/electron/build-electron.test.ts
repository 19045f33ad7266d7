import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const repo = path.resolve(import.meta.dirname, '../../..');
let out: string;

function requires(file: string): string[] {
  return [...new Set([...readFileSync(file, 'utf8').matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]))].sort();
}

beforeAll(async () => {
  out = mkdtempSync(path.join(os.tmpdir(), 'hnsight-electron-build-'));
  const { buildElectron } = (await import(pathToFileURL(path.join(repo, 'tools/build-electron.mjs')).href)) as { buildElectron(o: { outdir: string }): Promise<unknown[]> };
  await buildElectron({ outdir: out });
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('tools/build-electron.mjs', () => {
  it('produces the main, preload and parser-worker bundles', () => {
    for (const f of ['main.cjs', 'preload.cjs', 'parse-worker.mjs']) expect(existsSync(path.join(out, f)), f).toBe(true);
  });

  it('bundles the preload into one file that requires only electron', () => {
    expect(requires(path.join(out, 'preload.cjs'))).toEqual(['electron']);
    const src = readFileSync(path.join(out, 'preload.cjs'), 'utf8');
    expect(src).toContain('exposeInMainWorld("hnsight"');
    expect(src).toContain('exposeInMainWorld("hnsightFiles"');
    expect(src).not.toMatch(/zod|safeParse/);
    expect(src.length).toBeLessThan(20_000);
  });

  it('bundles the main process: electron external, every package inlined, no import.meta left', () => {
    const deps = requires(path.join(out, 'main.cjs'));
    expect(deps).toContain('electron');
    const builtins = new Set(['events', 'fs', 'path', 'stream', 'url', 'util', 'zlib', 'os', 'crypto', 'buffer', 'worker_threads', 'child_process', 'assert', 'string_decoder']);
    for (const d of deps) expect(d === 'electron' || d.startsWith('node:') || builtins.has(d), d).toBe(true);
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
});
