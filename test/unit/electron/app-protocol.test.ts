// The desktop app's app://hnsight/ handler (electron/main/app-protocol.ts; Electron security
// checklist item 18): serves the built renderer's files with the CSP, and nothing else — no path
// that climbs out (plain, percent-encoded, backslashed), no symlink leading out, no other host.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APP_INDEX_URL, resolveAppFile, serveAppRequest } from '../../../electron/main/app-protocol.ts';
import { isAppIndexUrl } from '../../../electron/main/ipc-handler.ts';

function tree() {
  const top = mkdtempSync(path.join(tmpdir(), 'hnsight-app-proto-'));
  const root = path.join(top, 'renderer');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>hnsight</title>');
  writeFileSync(path.join(root, 'assets', 'main.js'), 'console.log(1)');
  writeFileSync(path.join(top, 'secret.txt'), 'outside the renderer');
  symlinkSync(path.join(top, 'secret.txt'), path.join(root, 'assets', 'link.txt'));
  return { top, root };
}

describe('app://hnsight/', () => {
  it('serves the index and the assets with their types and the CSP', async () => {
    const { root } = tree();
    const index = await serveAppRequest({ url: APP_INDEX_URL, method: 'GET' }, root);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect(await index.text()).toContain('<title>hnsight</title>');
    const js = await serveAppRequest({ url: 'app://hnsight/assets/main.js?v=1#x', method: 'GET' }, root);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await serveAppRequest({ url: 'app://hnsight/', method: 'GET' }, root)).status).toBe(200);
  });

  it.each([
    ['a climb', 'app://hnsight/../secret.txt'],
    ['an encoded climb', 'app://hnsight/%2e%2e/secret.txt'],
    ['an encoded slash climb', 'app://hnsight/assets%2f..%2f..%2fsecret.txt'],
    ['a backslash climb', 'app://hnsight/assets\\..\\..\\secret.txt'],
    ['an encoded backslash', 'app://hnsight/assets%5c..%5c..%5csecret.txt'],
    ['a NUL', 'app://hnsight/index.html%00.js'],
    ['a symlink out', 'app://hnsight/assets/link.txt'],
    ['another host', 'app://evil/index.html'],
    ['another scheme', 'file:///etc/passwd'],
    ['a folder', 'app://hnsight/assets'],
    ['a missing file', 'app://hnsight/nope.js'],
  ])('refuses %s', async (_n, url) => {
    const { root } = tree();
    const r = await serveAppRequest({ url, method: 'GET' }, root);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(await r.text()).not.toContain('outside the renderer');
  });

  it('never resolves outside the root, whatever the path (property over generated paths)', () => {
    const root = '/opt/hnsight/renderer';
    const parts = ['..', '.', 'assets', '%2e%2e', '%2E%2E', '%2f', '%5c', 'a', '', '...', '..%2f', '%252e%252e'];
    let n = 0;
    for (const a of parts) for (const b of parts) for (const c of parts) {
      const r = resolveAppFile(`app://hnsight/${a}/${b}/${c}`, root);
      if ('file' in r) expect(r.file.startsWith(root + path.sep), `${a}/${b}/${c}`).toBe(true);
      n++;
    }
    expect(n).toBe(parts.length ** 3);
  });

  it('answers only GET and HEAD', async () => {
    const { root } = tree();
    expect((await serveAppRequest({ url: APP_INDEX_URL, method: 'POST' }, root)).status).toBe(405);
    const head = await serveAppRequest({ url: APP_INDEX_URL, method: 'HEAD' }, root);
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('the IPC sender check takes the app:// index page, and nothing near it', () => {
    expect(isAppIndexUrl('app://hnsight/index.html', APP_INDEX_URL)).toBe(true);
    expect(isAppIndexUrl('app://hnsight/index.html?x=1#/walk', APP_INDEX_URL)).toBe(true);
    expect(isAppIndexUrl('app://evil/index.html', APP_INDEX_URL)).toBe(false);
    expect(isAppIndexUrl('app://hnsight/other.html', APP_INDEX_URL)).toBe(false);
    expect(isAppIndexUrl('file:///opt/hnsight/dist/renderer/index.html', APP_INDEX_URL)).toBe(false);
    expect(isAppIndexUrl('https://hnsight/index.html', APP_INDEX_URL)).toBe(false);
  });
});
