// Browser mode's server: loopback only, the token in a header on every request that reaches the
// backend (never a cookie: issue #28), every API call validated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { Backend } from '../../../services/backend/backend.ts';
import { startServer, type RunningServer } from '../../../services/server/server.ts';
import { checkAccess } from '../../../services/server/access.ts';
import { NOTES_LIMITS, notesRequestMaxBytes } from '../../../contract/limits.ts';

let dir: string;
let server: RunningServer;
const TOKEN = 'test-token-0123456789abcdef';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-srv-'));
  const staticDir = path.join(dir, 'static');
  await mkdir(staticDir);
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>hnsight</title>');
  await writeFile(path.join(dir, 'secret.txt'), 'outside the static root');
  // Like `hnsight serve --allow <dir>`: paths under the test folder are the user's to open.
  const backend = new Backend({ mode: 'browser', dataDir: path.join(dir, 'data'), allowedRoots: [dir] });
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

  it('refuses API calls, uploads and events without the token, or with a wrong one', async () => {
    expect((await api('info', {}, {})).status).toBe(401);
    expect((await api('info', {}, { 'X-Hnsight-Token': 'x' + TOKEN.slice(1) })).status).toBe(401);
    expect((await request('/upload?name=a.zip&size=1', { method: 'POST', body: 'x' })).status).toBe(401);
    expect((await request('/events')).status).toBe(401);
    // Not in the URL either: a token in a query string ends up in logs and history.
    expect((await request(`/api/info?token=${TOKEN}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(401);
    expect((await request(`/events?token=${TOKEN}`)).status).toBe(401);
  });

  it('serves the page without the token (a reload has none in its URL) and sets no cookie', async () => {
    for (const p of ['/', `/?token=${TOKEN}`, '/index.html']) {
      const r = await request(p);
      expect(r.status, p).toBe(200);
      expect(r.headers['set-cookie'], p).toBeUndefined();
      expect(r.headers['content-security-policy']).toMatch(/default-src 'none'/);
    }
  });

  it('grants nothing to a cookie holding the token (cookies reach every port of 127.0.0.1)', async () => {
    for (const name of [`hnsight_token_${server.port}`, 'hnsight_token', 'token']) {
      const r = await api('info', {}, { Cookie: `${name}=${TOKEN}` });
      expect(r.status, name).toBe(401);
      expect((await request('/events', { headers: { Cookie: `${name}=${TOKEN}` } })).status).toBe(401);
    }
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const r = await request(`/?token=${TOKEN}`, { headers: { Host: `evil.example:${server.port}` } });
    expect(r.status).toBe(403);
  });

  it('answers a path that is not valid percent-encoding with 400, not an internal error', async () => {
    const r = await request('/%E0%A4%A');
    expect(r.status).toBe(400);
    expect(r.body).not.toMatch(/internal|URI/);
  });

  it('does not serve files outside the static folder', async () => {
    const r = await request(`/..%2fsecret.txt?token=${TOKEN}`);
    expect(r.status).toBe(404);
    expect(r.body).not.toMatch(/outside/);
  });

  it('checkAccess refuses non-loopback peers and accepts loopback ones with the token', () => {
    const ok = (t: string | undefined) => t === TOKEN;
    const base = { host: '127.0.0.1:9', port: 9, headerToken: TOKEN, needsToken: true };
    expect(checkAccess({ ...base, remoteAddress: '10.0.0.5' }, ok)?.status).toBe(403);
    expect(checkAccess({ ...base, remoteAddress: '192.168.1.2' }, ok)?.status).toBe(403);
    expect(checkAccess({ ...base, remoteAddress: undefined }, ok)?.status).toBe(403);
    expect(checkAccess({ ...base, remoteAddress: '127.0.0.1' }, ok)).toBeUndefined();
    expect(checkAccess({ ...base, remoteAddress: '::1' }, ok)).toBeUndefined();
    expect(checkAccess({ ...base, remoteAddress: '::ffff:127.0.0.1', host: 'localhost:9' }, ok)).toBeUndefined();
    expect(checkAccess({ ...base, remoteAddress: '127.0.0.1', headerToken: undefined }, ok)?.status).toBe(401);
    // The renderer's files need no token, but still this machine and our own name.
    expect(checkAccess({ ...base, remoteAddress: '127.0.0.1', headerToken: undefined, needsToken: false }, ok)).toBeUndefined();
    expect(checkAccess({ ...base, remoteAddress: '10.0.0.5', headerToken: undefined, needsToken: false }, ok)?.status).toBe(403);
    expect(checkAccess({ ...base, remoteAddress: '127.0.0.1', host: 'evil.example:9', headerToken: undefined, needsToken: false }, ok)?.status).toBe(403);
  });
});

describe('validation', () => {
  it('answers a valid call', async () => {
    const r = await api('info', {});
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, value: { mode: 'browser' } });
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

  it('takes a pasted text bigger than other calls may send, up to the paste limit', async () => {
    // 2 MiB of route print: over the 1 MiB other calls get, read and previewed.
    const routes = '===========================================================================\nIPv4 Route Table\n===========================================================================\nActive Routes:\nNetwork Destination        Netmask          Gateway       Interface  Metric\n';
    const text = routes + '          0.0.0.0          0.0.0.0      10.240.0.1     10.240.0.35     10\n'.repeat((2 * 1024 * 1024) / 70);
    const r = await api('recognisePaste', { text });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).value).toMatchObject({ kind: 'routes' });
  });

  it('takes saveNotes bodies as large as the notes file allows (not the 1 MiB other calls get)', async () => {
    // 120 notes of 20,000 characters: about 2.4 MB, a legal notes file.
    const note = (i: number) => ({ id: `n${i}`, target: { kind: 'report', ref: 'report' }, text: 'x'.repeat(NOTES_LIMITS.noteChars), createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z' });
    const r = await api('saveNotes', { bundleId: 'b-none', notes: { title: 't', summary: '', notes: Array.from({ length: 120 }, (_, i) => note(i)), traces: [] }, baseRevision: 0 });
    // Read and validated: the handler answers that the bundle is not open, not the body cap.
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body).error).toMatch(/no longer open|not open/);
  });

  it("the saveNotes cap holds the largest notes the format allows, at the worst bytes per character", () => {
    // Control characters are escaped as \u00XX: 6 bytes for one character, the most JSON spends.
    const worst = (n: number) => '\u0001'.repeat(n);
    const L = NOTES_LIMITS;
    const oneNote = { id: worst(L.noteIdChars), target: { kind: 'report', ref: worst(L.refChars) }, text: worst(L.noteChars), createdAt: worst(L.timeChars), updatedAt: worst(L.timeChars) };
    const perNote = Buffer.byteLength(JSON.stringify(oneNote)) + 1;
    const flow = { srcIp: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', dstIp: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', dstPort: 65535, srcPort: 65535, proto: 'icmp', dip: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff' };
    const rest = Buffer.byteLength(JSON.stringify({ bundleId: 'x'.repeat(128), notes: { title: worst(L.titleChars), summary: worst(L.summaryChars), notes: [], traces: Array.from({ length: L.traces }, () => flow) }, baseRevision: Number.MAX_SAFE_INTEGER }));
    expect(perNote * L.notes + rest).toBeLessThanOrEqual(notesRequestMaxBytes());
    // And not absurdly more (within 10 %).
    expect(notesRequestMaxBytes()).toBeLessThan(1.1 * (perNote * L.notes + rest));
  });

  it('reports a missing bundle path as a failed job with the path in the message', async () => {
    const start = JSON.parse((await api('openBundle', { path: path.join(dir, 'nope') })).body).value;
    let job;
    for (let i = 0; i < 100; i++) {
      job = JSON.parse((await api('getJob', { jobId: start.jobId })).body).value;
      if (job.state !== 'loading') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(job.state).toBe('error');
    expect(job.error).toMatch(/no such file or folder: .*nope/);
  });

  it('refuses a path outside what the user chose, before touching it', async () => {
    const r = await api('openBundle', { path: '/etc/passwd' });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body)).toEqual({ ok: false, kind: 'refused', error: expect.stringMatching(/^refused: \/etc\/passwd is not a bundle you chose/) });
  });
});

describe('the reply envelope over HTTP', () => {
  it('answers failures with { ok: false, kind, error } and the matching status', async () => {
    const r = await api('getTopology', { bundleId: 'b-none' });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toEqual({ ok: false, kind: 'not-found', error: expect.stringMatching(/no longer open/) });
    const bad = await api('openBundle', { path: 42 });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, kind: 'invalid' });
  });
});

describe('state-changing requests come from our own page', () => {
  it('refuses a POST whose Origin is another page, even with the token', async () => {
    const token = { 'X-Hnsight-Token': TOKEN };
    const other = await api('info', {}, { ...token, Origin: `http://127.0.0.1:${server.port + 1}` });
    expect(other.status).toBe(403);
    expect(other.body).toMatch(/another page/);
    const site = await api('info', {}, { ...token, 'Sec-Fetch-Site': 'same-site' });
    expect(site.status).toBe(403);
    const own = await api('info', {}, { ...token, Origin: `http://127.0.0.1:${server.port}`, 'Sec-Fetch-Site': 'same-origin' });
    expect(own.status).toBe(200);
    const upload = await request(`/upload?name=x.zip&size=3`, { method: 'POST', headers: { ...token, Origin: 'http://127.0.0.1:1' }, body: 'abc' });
    expect(upload.status).toBe(403);
  });

  it('says a stale token belongs to a server that is gone (restarted on the same port)', async () => {
    const r = await api('info', {}, { 'X-Hnsight-Token': 'an-old-servers-token' });
    expect(r.status).toBe(401);
    expect(r.body).toMatch(/no longer running on this port|token changed/);
  });
});

describe('uploads', () => {
  it('saves the file, opens it as a job, and refuses what is over the limit or misdeclared', async () => {
    const zipless = await request(`/upload?name=${encodeURIComponent('../../évil name.txt')}&size=5`, { method: 'POST', headers: { 'X-Hnsight-Token': TOKEN }, body: 'hello' });
    expect(zipless.status).toBe(200);
    const { jobId } = JSON.parse(zipless.body).value;
    let job;
    for (let i = 0; i < 200; i++) {
      job = JSON.parse((await api('getJob', { jobId })).body).value;
      if (job.state !== 'loading') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    // The name is kept as a plain file name in the server's private upload folder.
    expect(job.location).toMatch(/hnsight-upload-[^/]+\/\d+\/\.\._\.\._.vil name\.txt$|hnsight-upload-[^/]+\/\d+\/[^/]*vil name\.txt$/);
    expect(job.location).not.toContain('..' + path.sep);
    const noSize = await request('/upload?name=a.zip', { method: 'POST', headers: { 'X-Hnsight-Token': TOKEN }, body: 'x' });
    expect(noSize.status).toBe(400);
  });

  it('deletes the uploads when the server closes', async () => {
    const d = await mkdtemp(path.join(tmpdir(), 'hnsight-srv-up-'));
    const s = await startServer({ backend: new Backend({ mode: 'browser', dataDir: d }), staticDir: d, token: TOKEN, uploadLimit: 10 });
    const up = (body: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: s.port, path: `/upload?name=a.txt&size=${body.length}`, method: 'POST', headers: { 'X-Hnsight-Token': TOKEN } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        });
        req.on('error', reject);
        req.end(body);
      });
    expect((await up('x'.repeat(11))).status).toBe(413);
    const ok = await up('abc');
    expect(ok.status).toBe(200);
    const b = (await import('node:fs/promises'));
    const uploadDirs = (await b.readdir(tmpdir())).filter((n) => n.startsWith('hnsight-upload-'));
    expect(uploadDirs.length).toBeGreaterThan(0);
    const before = new Set(uploadDirs);
    await s.close();
    const after = (await b.readdir(tmpdir())).filter((n) => n.startsWith('hnsight-upload-'));
    expect(after.filter((n) => before.has(n)).length).toBeLessThan(before.size);
    await rm(d, { recursive: true, force: true });
  });
});

describe('events', () => {
  it('streams job events as Server-Sent Events', async () => {
    const events: unknown[] = [];
    const req = http.request({ host: '127.0.0.1', port: server.port, path: '/events', headers: { 'X-Hnsight-Token': TOKEN } });
    const got = new Promise<void>((resolve, reject) => {
      req.on('response', (res) => {
        expect(res.headers['content-type']).toMatch(/text\/event-stream/);
        let buf = '';
        res.on('data', (c: Buffer) => {
          buf += c.toString();
          for (;;) {
            const i = buf.indexOf('\n\n');
            if (i < 0) break;
            const msg = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = /^data: (.*)$/m.exec(msg)?.[1];
            if (data) events.push(JSON.parse(data));
            if (events.some((e) => (e as { job: { state: string } }).job.state === 'error')) resolve();
          }
        });
      });
      req.on('error', reject);
    });
    req.end();
    await new Promise((r) => setTimeout(r, 50));
    const { jobId } = JSON.parse((await api('openBundle', { path: path.join(dir, 'not-there') })).body).value;
    await got;
    req.destroy();
    expect(events.at(-1)).toMatchObject({ type: 'load', job: { jobId, state: 'error', error: expect.stringMatching(/not-there/) } });
  });
});
