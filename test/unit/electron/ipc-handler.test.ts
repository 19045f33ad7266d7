import { describe, expect, it, vi } from 'vitest';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { channelFor, checkSender, errorMessage, handleIpc, isAppIndexUrl, type SenderInfo } from '../../../electron/main/ipc-handler.ts';
import { METHODS } from '../../../contract/api.ts';

const INDEX = pathToFileURL(path.resolve('/opt/hnsight/dist/renderer/index.html')).href;
const good: SenderInfo = { url: INDEX, isOurWindow: true, isMainFrame: true };

function fakeBackend(value: unknown = { jobId: 'job-1' }) {
  return { call: vi.fn(async (_m: string, _b: unknown) => value) };
}

describe('handleIpc', () => {
  it('passes a valid call from our page to the backend and wraps the value', async () => {
    const backend = fakeBackend();
    const r = await handleIpc('openBundle', { path: '/tmp/bundle' }, good, { backend, indexUrl: INDEX });
    expect(r).toEqual({ value: { jobId: 'job-1' } });
    expect(backend.call).toHaveBeenCalledWith('openBundle', { path: '/tmp/bundle' });
  });

  it('accepts a missing body for methods without arguments', async () => {
    const backend = fakeBackend([]);
    expect(await handleIpc('listRecent', undefined, good, { backend, indexUrl: INDEX })).toEqual({ value: [] });
  });

  it('keeps replies that carry an error field as values (a failed load job)', async () => {
    const job = { jobId: 'job-1', state: 'error', error: 'could not load' };
    const r = await handleIpc('getJob', { jobId: 'job-1' }, good, { backend: fakeBackend(job), indexUrl: INDEX });
    expect(r).toEqual({ value: job });
  });

  it('refuses bad arguments with a readable message, before the backend', async () => {
    const backend = fakeBackend();
    const r = await handleIpc('openBundle', { path: 42 }, good, { backend, indexUrl: INDEX });
    expect(r).toEqual({ error: expect.stringMatching(/^bad arguments for openBundle: path /) });
    const extra = await handleIpc('openBundle', { path: '/x', evil: true }, good, { backend, indexUrl: INDEX });
    expect('error' in extra && extra.error).toMatch(/bad arguments for openBundle/);
    const badId = await handleIpc('getTopology', { bundleId: '../../etc' }, good, { backend, indexUrl: INDEX });
    expect('error' in badId && badId.error).toMatch(/bad arguments for getTopology: bundleId/);
    expect(backend.call).not.toHaveBeenCalled();
  });

  it('refuses an unknown method', async () => {
    const backend = fakeBackend();
    const r = await handleIpc('deleteEverything', {}, good, { backend, indexUrl: INDEX });
    expect(r).toEqual({ error: 'unknown method "deleteEverything"' });
    expect(await handleIpc('__proto__', {}, good, { backend, indexUrl: INDEX })).toEqual({ error: expect.stringMatching(/unknown method/) });
    expect(backend.call).not.toHaveBeenCalled();
  });

  it('refuses a sender that is not our page', async () => {
    const backend = fakeBackend();
    const cases: SenderInfo[] = [
      { ...good, url: 'https://evil.example/index.html' },
      { ...good, url: pathToFileURL('/tmp/other/index.html').href },
      { ...good, url: 'file:///opt/hnsight/dist/renderer/index.html.evil' },
      { ...good, url: 'http://127.0.0.1:8080/index.html' },
      { ...good, url: 'devtools://devtools/bundled/index.html' },
      { ...good, url: undefined },
      { ...good, isOurWindow: false },
      { ...good, isMainFrame: false },
    ];
    for (const s of cases) {
      const r = await handleIpc('info', {}, s, { backend, indexUrl: INDEX });
      expect(r, JSON.stringify(s)).toEqual({ error: expect.stringMatching(/^refused: /) });
    }
    expect(backend.call).not.toHaveBeenCalled();
  });

  it('accepts our page with a query or a fragment (hash routing)', () => {
    expect(() => checkSender({ ...good, url: INDEX + '#/bundle/b1' }, INDEX)).not.toThrow();
    expect(() => checkSender({ ...good, url: INDEX + '?x=1' }, INDEX)).not.toThrow();
  });

  it('answers methods the shell handles itself (pickBundle) without the backend', async () => {
    const backend = fakeBackend();
    const pickBundle = vi.fn(async () => ({ path: '/tmp/b.zip' }));
    const r = await handleIpc('pickBundle', { kind: 'zip' }, good, { backend, indexUrl: INDEX, local: { pickBundle } });
    expect(r).toEqual({ value: { path: '/tmp/b.zip' } });
    expect(pickBundle).toHaveBeenCalledWith({ kind: 'zip' });
    expect(backend.call).not.toHaveBeenCalled();
    const bad = await handleIpc('pickBundle', { kind: 'anything' }, good, { backend, indexUrl: INDEX, local: { pickBundle } });
    expect('error' in bad && bad.error).toMatch(/bad arguments for pickBundle: kind/);
    expect(pickBundle).toHaveBeenCalledTimes(1);
  });

  it('returns backend failures as one line, without a stack, and logs the stack', async () => {
    const log = vi.fn();
    const backend = { call: vi.fn(async () => Promise.reject(new Error('bundle b1 is not open\n    at Backend.bundle (backend.ts:1:1)'))) };
    const r = await handleIpc('getInventory', { bundleId: 'b1' }, good, { backend, indexUrl: INDEX, log });
    expect(r).toEqual({ error: 'bundle b1 is not open' });
    expect(log).toHaveBeenCalledOnce();
  });

  it('runs afterCall on success only, and survives it throwing', async () => {
    const afterCall = vi.fn(() => {
      throw new Error('menu broke');
    });
    const r = await handleIpc('openBundle', { path: '/b' }, good, { backend: fakeBackend(), indexUrl: INDEX, afterCall });
    expect(r).toEqual({ value: { jobId: 'job-1' } });
    expect(afterCall).toHaveBeenCalledWith('openBundle', { path: '/b' }, { jobId: 'job-1' });
    await handleIpc('openBundle', {}, good, { backend: fakeBackend(), indexUrl: INDEX, afterCall });
    expect(afterCall).toHaveBeenCalledTimes(1);
  });
});

describe('helpers', () => {
  it('names one channel per method', () => {
    expect(METHODS.map(channelFor)).toContain('hnsight:openBundle');
    expect(new Set(METHODS.map(channelFor)).size).toBe(METHODS.length);
  });

  it('compares index URLs by file path', () => {
    expect(isAppIndexUrl('file:///C:/Program%20Files/hnsight/index.html', 'file:///c:/program files/hnsight/index.html', 'win32')).toBe(true);
    expect(isAppIndexUrl('file:///a/Index.html', 'file:///a/index.html', 'linux')).toBe(false);
    expect(isAppIndexUrl('not a url', INDEX)).toBe(false);
    expect(isAppIndexUrl('file://evil-host/opt/hnsight/dist/renderer/index.html', INDEX, 'linux')).toBe(false);
  });

  it('makes one-line messages from anything thrown', () => {
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage({})).toBe('unexpected error');
    expect(errorMessage(new Error('a\nb'))).toBe('a');
  });
});
