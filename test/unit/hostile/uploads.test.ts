// Uploads a token holder sends to browser mode (issue 15 audit): a body longer than the size it
// declared is refused; the uploads kept at once are capped in count and bytes; files kept for a
// cluster (keep=1) go when the cluster is closed or never opens; folders a killed server left are
// swept when the next one starts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Backend } from '../../../services/backend/backend.ts';
import { startServer, type RunningServer } from '../../../services/server/server.ts';
import { sweepUploads, Uploads, UploadTooLarge } from '../../../services/server/uploads.ts';
import type { Envelope } from '../../../contract/index.ts';
import { makeZip } from '../../helpers/zip.ts';
import { DEMO } from '../../fuzz/hostile.ts';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'hnsight-uploads-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Whether `f` is deleted once the server's release (asynchronous, after the reply) has run. */
async function deleted(f: string): Promise<boolean> {
  for (let i = 0; i < 200 && existsSync(f); i++) await new Promise((r) => setTimeout(r, 10));
  return !existsSync(f);
}

const body = (bytes: Buffer) => Readable.from([bytes]) as unknown as http.IncomingMessage;

describe('Uploads: caps', () => {
  it('refuses a body larger than its declared size, and keeps nothing of it', async () => {
    const u = new Uploads(1024 * 1024);
    await expect(u.save(body(Buffer.alloc(2000)), 'a.zip', 1000)).rejects.toThrow(new UploadTooLarge('the upload is larger than the 1,000 bytes it declared'));
    expect(u.kept).toEqual([]);
    await u.clear();
  });

  it('keeps at most maxCount uploads and maxTotal bytes; a released one makes room', async () => {
    const u = new Uploads(1000, undefined, { maxCount: 2, maxTotal: 1500 });
    const a = await u.save(body(Buffer.alloc(600)), 'a.zip', 600);
    await u.save(body(Buffer.alloc(600)), 'b.zip', 600);
    await expect(u.save(body(Buffer.alloc(10)), 'c.zip', 10)).rejects.toThrow(/2 uploaded files are open already, the most this server keeps: close a bundle or cluster first/);
    await u.release(a);
    await expect(u.save(body(Buffer.alloc(1000)), 'd.zip', 1000)).rejects.toThrow(/the uploads open now hold 600 bytes; 1,000 bytes more would pass the 1.5 KiB this server keeps/);
    expect(await u.save(body(Buffer.alloc(900)), 'e.zip', 900)).toMatch(/e\.zip$/);
    expect(u.kept).toHaveLength(2);
    await u.clear();
  });
});

describe('sweeping the folders a killed server left', () => {
  it('deletes those of a server that is gone and old ones without an owner; keeps one that runs', async () => {
    const root = path.join(tmp, 'sweep');
    mkdirSync(root);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const mk = (name: string, owner?: string) => {
      const d = path.join(root, name);
      mkdirSync(path.join(d, '1'), { recursive: true });
      writeFileSync(path.join(d, '1', 'node.zip'), 'x');
      if (owner !== undefined) writeFileSync(path.join(d, '.owner-pid'), owner);
      return d;
    };
    const gone = mk('hnsight-upload-gone', dead.stdout);
    const running = mk('hnsight-upload-running', String(process.pid));
    const old = mk('hnsight-upload-old');
    const day = (Date.now() - 2 * 24 * 3600 * 1000) / 1000;
    utimesSync(old, day, day);
    const fresh = mk('hnsight-upload-fresh');
    const other = mk('something-else', dead.stdout);
    expect((await sweepUploads(root)).sort()).toEqual([gone, old].sort());
    for (const d of [running, fresh, other]) expect(existsSync(d)).toBe(true);
  });
});

describe('browser mode: files kept for a cluster (keep=1)', () => {
  const TOKEN = 'uploads-token-0123456789';
  let server: RunningServer;
  let allowed: string;
  const request = (p: string, data: Buffer | string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, path: p, method: 'POST', headers: { 'X-Hnsight-Token': TOKEN, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end(data);
    });
  const api = async (method: string, b: unknown) => JSON.parse((await request(`/api/${method}`, JSON.stringify(b), { 'Content-Type': 'application/json' })).body) as Envelope;
  const keep = async (name: string, bytes: Buffer) => {
    const r = await request(`/upload?name=${name}&size=${bytes.length}&keep=1`, bytes, { 'Content-Type': 'application/octet-stream' });
    return (JSON.parse(r.body) as { value: { path: string } }).value.path;
  };

  beforeAll(async () => {
    allowed = path.join(tmp, 'allowed');
    for (const n of ['a', 'b']) cpSync(DEMO, path.join(allowed, 'cluster', n), { recursive: true });
    server = await startServer({ backend: new Backend({ mode: 'browser', dataDir: path.join(tmp, 'data'), allowedRoots: [allowed] }), staticDir: tmp, token: TOKEN });
  });
  afterAll(() => server.close());

  it('refuses a body longer than its declared size (413)', async () => {
    const r = await request('/upload?name=x.zip&size=10&keep=1', Buffer.alloc(5000), { 'Content-Type': 'application/octet-stream' });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, kind: 'refused', error: 'the upload is larger than the 10 bytes it declared' });
  });

  it('deletes them when their cluster is closed (pushed out by newer ones)', async () => {
    const zip = await makeZip({ 'ip.txt': readFileSync(path.join(DEMO, 'ip.txt')) });
    const files = [await keep('a.zip', zip), await keep('b.zip', zip)];
    expect(await api('openCluster', { paths: files })).toMatchObject({ ok: true });
    for (const f of files) expect(existsSync(f)).toBe(true);
    // The app keeps three clusters: the fourth opened closes the first.
    for (let i = 0; i < 2; i++) expect(await api('openCluster', { path: path.join(allowed, 'cluster') })).toMatchObject({ ok: true });
    for (const f of files) expect(existsSync(f)).toBe(true);
    expect(await api('openCluster', { path: path.join(allowed, 'cluster') })).toMatchObject({ ok: true });
    for (const f of files) expect(await deleted(f)).toBe(true);
  });

  it('deletes them when the cluster never opens', async () => {
    const zip = await makeZip({ 'ip.txt': readFileSync(path.join(DEMO, 'ip.txt')) });
    const files = [await keep('c.zip', zip), await keep('d.zip', zip)];
    // One path of the request is not the user's: the cluster is refused, and the uploads sent for it go.
    expect(await api('openCluster', { paths: [...files, '/etc'] })).toMatchObject({ ok: false, kind: 'refused' });
    for (const f of files) expect(await deleted(f)).toBe(true);
  });
});
