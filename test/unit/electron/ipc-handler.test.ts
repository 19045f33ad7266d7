// The IPC edge: only our window's top frame showing our page reaches the backend; the reply is the
// backend's envelope, unchanged. (Validation is the dispatcher's: test/unit/server/dispatch.test.ts.)
import { describe, expect, it, vi } from 'vitest';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { channelFor, handleIpc, isAppIndexUrl, METHODS, senderRefusal, type SenderInfo } from '../../../electron/main/ipc-handler.ts';
import type { Envelope } from '../../../contract/index.ts';

const INDEX = pathToFileURL(path.resolve('/opt/hnsight/dist/renderer/index.html')).href;
const good: SenderInfo = { url: INDEX, isOurWindow: true, isMainFrame: true };

function fakeBackend(reply: Envelope = { ok: true, value: { jobId: 'job-1' } }) {
  return { call: vi.fn(async (_m: string, _b: unknown) => reply) };
}

describe('handleIpc', () => {
  it('passes a call from our page to the backend and returns its envelope unchanged', async () => {
    const backend = fakeBackend();
    expect(await handleIpc('openBundle', { path: '/tmp/bundle' }, good, { backend, indexUrl: INDEX })).toEqual({ ok: true, value: { jobId: 'job-1' } });
    expect(backend.call).toHaveBeenCalledWith('openBundle', { path: '/tmp/bundle' });
    const failed: Envelope = { ok: false, kind: 'not-found', error: 'bundle b1 is not open' };
    expect(await handleIpc('getInventory', { bundleId: 'b1' }, good, { backend: fakeBackend(failed), indexUrl: INDEX })).toEqual(failed);
  });

  it('refuses a sender that is not our page, before the backend', async () => {
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
      expect(r, JSON.stringify(s)).toEqual({ ok: false, kind: 'refused', error: expect.stringMatching(/^refused: /) });
    }
    expect(backend.call).not.toHaveBeenCalled();
  });

  it('accepts our page with a query or a fragment (hash routing)', () => {
    expect(senderRefusal({ ...good, url: INDEX + '#/bundle/b1' }, INDEX)).toBeUndefined();
    expect(senderRefusal({ ...good, url: INDEX + '?x=1' }, INDEX)).toBeUndefined();
  });

  it('runs afterCall on success only, and survives it throwing', async () => {
    const afterCall = vi.fn(() => {
      throw new Error('menu broke');
    });
    const r = await handleIpc('openBundle', { path: '/b' }, good, { backend: fakeBackend(), indexUrl: INDEX, afterCall });
    expect(r).toEqual({ ok: true, value: { jobId: 'job-1' } });
    expect(afterCall).toHaveBeenCalledWith('openBundle', { path: '/b' }, { jobId: 'job-1' });
    await handleIpc('openBundle', {}, good, { backend: fakeBackend({ ok: false, kind: 'invalid', error: 'bad' }), indexUrl: INDEX, afterCall });
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
});
