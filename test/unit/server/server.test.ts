// Browser mode's server: loopback only, token on every request, every API call validated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { Backend } from '../../../services/backend.ts';
import { checkAccess, startServer, type RunningServer } from '../../../services/server.ts';

let dir: string;
let server: RunningServer;
const TOKEN = 'test-token-0123456789abcdef';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-srv-'));
  const staticDir = path.join(dir, 'static');
  await mkdir(staticDir);
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>hnsight</title>');
  await writeFile(path.join(dir, 'secret.txt'), 'outside the static root');
  const backend = new Backend({ mode: 'browser', dataDir: path.join(dir, 'data') });
  server = await startServer({ backend, staticDir, token: TOKEN });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function request(p: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path: p, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }));
    });
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}
const api = (method: string, body: unknown, headers: Record<string, string> = { 'X-Hnsight-Token': TOKEN }) =>
  request(`/api/${method}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('access', () => {
  it('listens on 127.0.0.1 only and prints a URL with the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${TOKEN}`);
  });

  it('refuses requests without the token, or with a wrong one', async () => {
    expect((await request('/')).status).toBe(401);
    expect((await request('/?token=wrong')).status).toBe(401);
    expect((await api('info', {}, {})).status).toBe(401);
    expect((await api('info', {}, { 'X-Hnsight-Token': 'x' + TOKEN.slice(1) })).status).toBe(401);
  });

  it('serves the page with the token and sets a strict HttpOnly cookie, then accepts the cookie', async () => {
    const r = await request(`/?token=${TOKEN}`);
    expect(r.status).toBe(200);
    expect(r.headers['set-cookie']?.[0]).toMatch(/hnsight_token=.*HttpOnly; SameSite=Strict/);
    expect(r.headers['content-security-policy']).toMatch(/default-src 'none'/);
    const again = await request('/index.html', { headers: { Cookie: `hnsight_token=${TOKEN}` } });
    expect(again.status).toBe(200);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const r = await request(`/?token=${TOKEN}`, { headers: { Host: `evil.example:${server.port}` } });
    expect(r.status).toBe(403);
  });

  it('does not serve files outside the static folder', async () => {
    const r = await request(`/..%2fsecret.txt?token=${TOKEN}`);
    expect(r.status).toBe(404);
    expect(r.body).not.toMatch(/outside/);
  });

  it('checkAccess refuses non-loopback peers and accepts loopback ones with the token', () => {
    const ok = (t: string | undefined) => t === TOKEN;
    const base = { host: '127.0.0.1:9', port: 9, headerToken: TOKEN };
    expect(checkAccess({ ...base, remoteAddress: '10.0.0.5' }, ok)?.status).toBe(403);
    expect(checkAccess({ ...base, remoteAddress: '192.168.1.2' }, ok)?.status).toBe(403);
    expect(checkAccess({ ...base, remoteAddress: undefined }, ok)?.status).toBe(403);
    expect(checkAccess({ ...base, remoteAddress: '127.0.0.1' }, ok)).toBeUndefined();
    expect(checkAccess({ ...base, remoteAddress: '::1' }, ok)).toBeUndefined();
    expect(checkAccess({ ...base, remoteAddress: '::ffff:127.0.0.1', host: 'localhost:9' }, ok)).toBeUndefined();
    expect(checkAccess({ ...base, remoteAddress: '127.0.0.1', headerToken: undefined, cookie: `a=b; hnsight_token=${TOKEN}` }, ok)).toBeUndefined();
  });
});

describe('validation', () => {
  it('answers a valid call', async () => {
    const r = await api('info', {});
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).result.mode).toBe('browser');
  });

  it.each([
    ['unknown method', 'rmrf', {}, /unknown method/],
    ['unknown key', 'info', { extra: 1 }, /Unrecognized key/],
    ['wrong type', 'openBundle', { path: 42 }, /path/],
    ['empty path', 'openBundle', { path: '' }, /path/],
    ['bad demo name', 'openDemo', { name: '../../etc' }, /name/],
    ['bad bundle id', 'getTopology', { bundleId: '../x' }, /bundleId/],
    ['bad object ref', 'inspect', { bundleId: 'b1', ref: { type: 'shell', id: 'x' } }, /ref\.type/],
    ['search too long', 'search', { bundleId: 'b1', query: 'x'.repeat(1000) }, /query/],
  ])('refuses %s with 400 and a readable message', async (_n, method, body, re) => {
    const r = await api(method, body);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error).toMatch(re);
  });

  it('refuses non-JSON bodies and GET on the API', async () => {
    expect((await request('/api/info', { method: 'POST', headers: { 'X-Hnsight-Token': TOKEN, 'Content-Type': 'text/plain' }, body: '{}' })).status).toBe(415);
    expect((await request('/api/info', { method: 'POST', headers: { 'X-Hnsight-Token': TOKEN, 'Content-Type': 'application/json' }, body: '{nope' })).status).toBe(400);
    expect((await request('/api/info', { headers: { 'X-Hnsight-Token': TOKEN } })).status).toBe(405);
  });

  it('refuses oversized bodies', async () => {
    const r = await api('search', { bundleId: 'b1', query: 'x'.repeat(2 * 1024 * 1024) });
    expect(r.status).toBe(413);
  });

  it('reports a missing bundle path as a failed job with the path in the message', async () => {
    const start = JSON.parse((await api('openBundle', { path: path.join(dir, 'nope') })).body).result;
    let job;
    for (let i = 0; i < 100; i++) {
      job = JSON.parse((await api('getJob', { jobId: start.jobId })).body).result;
      if (job.state !== 'loading') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(job.state).toBe('error');
    expect(job.error).toMatch(/no such file or folder: .*nope/);
  });
});
