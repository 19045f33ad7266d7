// The capability model (issue 15): the page — over IPC in the desktop app, over HTTP with the token in
// browser mode — opens only bundles the user chose, reads excerpts only from files of an open bundle,
// and writes exports only where the save dialog answered. Checked through the real entry points: the
// Electron IPC handler in front of a real Backend, and a real `serve` server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Backend, type Dialogs } from '../../../services/backend/backend.ts';
import { startServer, type RunningServer } from '../../../services/server/server.ts';
import { handleIpc, type SenderInfo } from '../../../electron/main/ipc-handler.ts';
import type { Envelope, LoadJob } from '../../../contract/index.ts';
import { makeZip } from '../../helpers/zip.ts';

const repo = path.resolve(import.meta.dirname, '../../..');
const DEMO = path.join(repo, 'assets/demo/l2bridge-node');
const OVERLAY = path.join(repo, 'assets/demo/overlay-node');
const INDEX = 'file:///app/dist/renderer/index.html';
const OUR_WINDOW: SenderInfo = { url: INDEX, isOurWindow: true, isMainFrame: true };

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'hnsight-cap-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function loaded(b: Backend, reply: Envelope): Promise<LoadJob> {
  expect(reply).toMatchObject({ ok: true });
  return b.waitForLoad((reply as { value: { jobId: string } }).value.jobId);
}

describe('the desktop app: IPC handler → Backend', () => {
  let b: Backend;
  let picked: string | null;
  let saveAnswer: string | null;
  const ipc = (method: string, body: unknown) => handleIpc(method, body, OUR_WINDOW, { backend: b, indexUrl: INDEX });
  beforeAll(() => {
    const dialogs: Dialogs = { pickBundle: async () => (picked ? { path: picked } : null), pickSavePath: async () => (saveAnswer ? { path: saveAnswer } : null) };
    b = new Backend({ mode: 'electron', dataDir: path.join(tmp, 'electron-data'), dialogs, initialBundle: OVERLAY, renderPdf: async () => new Uint8Array([0x25, 0x50, 0x44, 0x46]) });
  });

  it('refuses to open a path no dialog, drop or command line named', async () => {
    for (const p of ['/etc/passwd', DEMO, path.join(DEMO, 'ip.txt'), `${DEMO}/../l2bridge-node`]) {
      expect(await ipc('openBundle', { path: p })).toEqual({ ok: false, kind: 'refused', error: expect.stringMatching(/^refused: .* is not a bundle you chose — open it with File > Open/) });
    }
    expect(await ipc('openDiff', { pathA: OVERLAY, pathB: '/etc' })).toMatchObject({ ok: false, kind: 'refused' });
  });

  it('opens what the command line named and what the dialog answered', async () => {
    expect((await loaded(b, await ipc('openBundle', { path: OVERLAY }))).state).toBe('done');
    picked = DEMO;
    expect(await ipc('pickBundle', { kind: 'folder' })).toEqual({ ok: true, value: { path: DEMO } });
    const job = await loaded(b, await ipc('openBundle', { path: DEMO }));
    expect(job.state).toBe('done');
    // Both are chosen now: a comparison of the two is allowed.
    expect(await ipc('openDiff', { pathA: OVERLAY, pathB: DEMO })).toMatchObject({ ok: true });
  });

  it('reads excerpts only from files of an open bundle', async () => {
    const job = await loaded(b, await ipc('openBundle', { path: DEMO }));
    const bundleId = job.summary!.id;
    expect(await ipc('getExcerpt', { bundleId, file: 'ip.txt', line: 3 })).toMatchObject({ ok: true, value: { file: 'ip.txt' } });
    for (const file of ['/etc/passwd', '../../../../etc/passwd', '../overlay-node/ip.txt', 'ip.txt/../../overlay-node/ip.txt']) {
      expect(await ipc('getExcerpt', { bundleId, file, line: 1 })).toMatchObject({ ok: false, kind: 'not-found', error: expect.stringContaining('no file') });
    }
  });

  it('shows no excerpt of a text file too big to read again for a few lines', async () => {
    const dir = path.join(tmp, 'big-text');
    await mkdir(dir);
    writeFileSync(path.join(dir, 'ip.txt'), readFileSync(path.join(DEMO, 'ip.txt')));
    // 80 MiB of nothing (sparse): listed from its head, never read whole.
    const { truncateSync } = await import('node:fs');
    writeFileSync(path.join(dir, 'capture.txt'), '');
    truncateSync(path.join(dir, 'capture.txt'), 80 * 1024 * 1024);
    b.allowOpen(dir);
    const job = await loaded(b, await ipc('openBundle', { path: dir }));
    expect(await ipc('getExcerpt', { bundleId: job.summary!.id, file: 'capture.txt', line: 1 })).toEqual({ ok: false, kind: 'not-found', error: 'capture.txt is 80 MiB: hnsight shows lines of text files up to 64 MiB' });
  });

  it('writes an export only where the save dialog answered; an existing file elsewhere is left alone', async () => {
    const job = await loaded(b, await ipc('openBundle', { path: DEMO }));
    const bundleId = job.summary!.id;
    const config = path.join(tmp, 'config.json');
    writeFileSync(config, '{"keep":true}');
    const refused = await ipc('exportReport', { bundleId, format: 'json', traces: [], redact: false, outPath: config });
    expect(refused).toEqual({ ok: false, kind: 'refused', error: expect.stringMatching(/was not chosen in the save dialog/) });
    expect(readFileSync(config, 'utf8')).toBe('{"keep":true}');
    saveAnswer = path.join(tmp, 'report.pdf');
    expect(await ipc('pickSavePath', { defaultName: 'report', extension: 'pdf' })).toEqual({ ok: true, value: { path: saveAnswer } });
    expect(await ipc('exportReport', { bundleId, format: 'pdf', traces: [], redact: false, outPath: saveAnswer })).toEqual({ ok: true, value: { path: saveAnswer, bytes: 4 } });
    expect(readFileSync(saveAnswer, 'latin1')).toBe('%PDF');
    // The answer is for that file: its neighbour is still refused.
    expect(await ipc('exportReport', { bundleId, format: 'pdf', traces: [], redact: false, outPath: path.join(tmp, 'other.pdf') })).toMatchObject({ ok: false, kind: 'refused' });
    expect(existsSync(path.join(tmp, 'other.pdf'))).toBe(false);
  });

  it('opens a dropped file the shell names (openDropped comes only from the preload)', async () => {
    expect((await loaded(b, await ipc('openDropped', { path: path.join(OVERLAY) }))).state).toBe('done');
  });

  it('opens a path the OS handed the shell (a second launch, Finder) once the shell allowed it', async () => {
    const copy = path.join(tmp, 'handed');
    await mkdir(copy);
    writeFileSync(path.join(copy, 'ip.txt'), readFileSync(path.join(DEMO, 'ip.txt')));
    expect(await ipc('openBundle', { path: copy })).toMatchObject({ ok: false, kind: 'refused' });
    b.allowOpen(copy);
    expect((await loaded(b, await ipc('openBundle', { path: copy }))).state).toBe('done');
  });
});

describe('browser mode: a real server, a token holder', () => {
  const TOKEN = 'capability-token-0123456789';
  let server: RunningServer;
  let backend: Backend;
  let allowed: string;
  const request = (p: string, opts: { method?: string; body?: string | Buffer; headers?: Record<string, string> } = {}) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, path: p, method: opts.method ?? 'POST', headers: { 'X-Hnsight-Token': TOKEN, ...opts.headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end(opts.body);
    });
  const api = async (method: string, body: unknown) => {
    const r = await request(`/api/${method}`, { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    return { status: r.status, env: JSON.parse(r.body) as Envelope };
  };
  const job = async (env: Envelope) => backend.waitForLoad((env as { value: { jobId: string } }).value.jobId);

  beforeAll(async () => {
    allowed = path.join(tmp, 'allowed');
    await mkdir(path.join(allowed, 'node1'), { recursive: true });
    writeFileSync(path.join(allowed, 'node1', 'ip.txt'), readFileSync(path.join(DEMO, 'ip.txt')));
    backend = new Backend({ mode: 'browser', dataDir: path.join(tmp, 'browser-data'), initialBundle: DEMO, allowedRoots: [allowed], renderPdf: async () => new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]) });
    server = await startServer({ backend, staticDir: tmp, token: TOKEN });
  });
  afterAll(() => server.close());

  it('refuses /etc/passwd and any path the user did not choose (403, before it is read)', async () => {
    // (The shipped demos are openable by path in browser mode: grants-demo.test.ts; a fixture stands for a path never chosen.)
    for (const p of ['/etc/passwd', '/etc', path.join(repo, 'test/fixtures/foreign/ws2022-overlay-2024'), path.join(allowed, '..', 'browser-data')]) {
      const r = await api('openBundle', { path: p });
      expect(r.status).toBe(403);
      expect(r.env).toMatchObject({ ok: false, kind: 'refused', error: expect.stringMatching(/is not a bundle you chose — hnsight serve opens the bundle named on its command line/) });
    }
    expect((await api('openDiff', { pathA: DEMO, pathB: '/etc/passwd' })).status).toBe(403);
    // A dropped file's path is the desktop app's: in the browser, drops are uploads.
    expect((await api('openDropped', { path: DEMO })).status).toBe(403);
  });

  it('opens the command line bundle, bundles under --allow, and then the recent list', async () => {
    expect((await job((await api('openBundle', { path: DEMO })).env)).state).toBe('done');
    expect((await job((await api('openBundle', { path: path.join(allowed, 'node1') })).env)).state).toBe('done');
    // A link inside the allowed folder that leads out of it is not a way out.
    const { symlinkSync } = await import('node:fs');
    symlinkSync('/etc', path.join(allowed, 'out'));
    expect((await api('openBundle', { path: path.join(allowed, 'out') })).status).toBe(403);
    // The recent list: a bundle opened before, by a server started without it on its command line.
    const next = new Backend({ mode: 'browser', dataDir: path.join(tmp, 'browser-data') });
    expect(((await next.invoke('listRecent', {})) as { path: string }[]).map((r) => r.path)).toContain(path.join(allowed, 'node1'));
    expect((await next.waitForLoad((await next.invoke('openBundle', { path: path.join(allowed, 'node1') })).jobId)).state).toBe('done');
  });

  it('writes no export to a path; the PDF comes back for a download', async () => {
    const bundleId = (await job((await api('openBundle', { path: DEMO })).env)).summary!.id;
    const target = path.join(tmp, 'written-by-token-holder.html');
    const r = await api('exportReport', { bundleId, format: 'html', traces: [], redact: false, outPath: target });
    expect(r.status).toBe(403);
    expect(existsSync(target)).toBe(false);
    const pdf = await api('exportReport', { bundleId, format: 'pdf', traces: [], redact: false });
    expect(pdf.env).toEqual({ ok: true, value: { bytes: 5, pdfBase64: Buffer.from('%PDF-').toString('base64') } });
  });

  it('reads no kubeconfig, key or known-hosts file from an upload or an open bundle (a kubeconfig can run commands)', async () => {
    const evil = Buffer.from('apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user:\n    exec:\n      command: /bin/sh\n      args: ["-c", "touch /tmp/pwned"]\n');
    const up = await request(`/upload?name=kubeconfig.yaml&size=${evil.length}`, { body: evil, headers: { 'Content-Type': 'application/octet-stream' } });
    const loadedUpload = await job(JSON.parse(up.body) as Envelope);
    expect(loadedUpload.state).toBe('done');
    for (const target of [
      { transport: 'kubectl', node: 'akswin000000', kubeconfig: loadedUpload.location },
      { transport: 'ssh', host: '127.0.0.1', user: 'u', privateKeyFile: loadedUpload.location },
      { transport: 'ssh', host: '127.0.0.1', user: 'u', knownHostsFile: path.join(DEMO, 'ip.txt'), acceptNewHostKey: true },
    ]) {
      const r = await api('startCollect', { target, password: 'correct-horse-9' });
      expect(r.status).toBe(403);
      expect(r.env).toMatchObject({ ok: false, kind: 'refused', error: expect.stringMatching(/came from an upload or a bundle/) });
    }
  });

  it('deletes an upload when its bundle closes, and one that never loads', async () => {
    const zip = await makeZip({ 'ip.txt': readFileSync(path.join(DEMO, 'ip.txt')) });
    const up = await request(`/upload?name=node.zip&size=${zip.length}`, { body: zip, headers: { 'Content-Type': 'application/octet-stream' } });
    expect(up.status).toBe(200);
    const done = await job(JSON.parse(up.body) as Envelope);
    expect(done.state).toBe('done');
    expect(existsSync(done.location)).toBe(true);
    expect(await api('closeBundle', { bundleId: done.summary!.id })).toMatchObject({ status: 200 });
    await waitFor(() => !existsSync(done.location));

    const junk = Buffer.from('PK\u0003\u0004 not really a zip');
    const bad = await request(`/upload?name=bad.zip&size=${junk.length}`, { body: junk, headers: { 'Content-Type': 'application/octet-stream' } });
    const failed = await job(JSON.parse(bad.body) as Envelope);
    expect(failed.state).toBe('error');
    await waitFor(() => !existsSync(failed.location));
  });
});

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}
