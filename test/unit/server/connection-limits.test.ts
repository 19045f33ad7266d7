// Browser mode's sockets are bounded (services/server/connection-limits.ts, issue #28 point 7): idle
// or unauthenticated sockets are closed, connections past the cap are refused on arrival, a body that
// trickles in is dropped, and the event stream stays open past the idle timeout with its heartbeat.
// On 127.0.0.1 only, with a bounded number of sockets and the limits shortened so it takes seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { Backend } from '../../../services/backend/backend.ts';
import { startServer, type RunningServer } from '../../../services/server/server.ts';

const TOKEN = 'limits-token-0123456789';
let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-limits-'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html>');
  server = await startServer({
    backend: new Backend({ mode: 'browser', dataDir: path.join(dir, 'data') }),
    staticDir: dir,
    token: TOKEN,
    limits: { maxConnections: 8, headersMs: 400, idleMs: 600, keepAliveMs: 200, bodyStallMs: 300, bodyMinBytes: 64, heartbeatMs: 150 },
  });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A raw socket to the server, with a promise of when (ms after connecting) the server closed it. */
function rawSocket(): Promise<{ socket: net.Socket; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const socket = net.connect(server.port, '127.0.0.1');
    const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now() - t0)));
    socket.on('error', () => undefined);
    // Read (and drop) whatever the server says before it closes, as a client does. A socket that sends
    // nothing is closed either by the server's own header timer, silently, or by Node's HTTP header
    // timeout (checked every 100 ms here, same 400 ms), with a "408 Request Timeout" first — whichever
    // fires first, and on a loaded machine that varies. Unread, the 408 stayed in the socket's buffer,
    // so its end, and its 'close', never came: the test failed with "idle sockets closed: not within
    // 20000 ms" though the server had closed every socket (seen 2026-11-29: the client's socket in
    // CLOSE-WAIT, 51 bytes "HTTP/1.1 408 Request Timeout" buffered; docs/testing.md).
    socket.resume();
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);

function info(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path: '/api/info', method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Hnsight-Token': TOKEN, Connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('socket limits', () => {
  it('closes sockets that never send a request, refuses those past the cap, and then serves the user again', async () => {
    const sockets = await Promise.all(Array.from({ length: 20 }, () => rawSocket()));
    // Every one is closed by the server: past the cap at once, the rest when idle. The bound only keeps a
    // hang from passing; on a loaded two-core machine the header timer fired past 5 s once.
    const times = await within(Promise.all(sockets.map((s) => s.closed)), 20_000, 'idle sockets closed');
    expect(times.filter((t) => t < 300).length).toBeGreaterThanOrEqual(12);
    expect(await info()).toBe(200);
  });

  it('closes a socket whose headers never end', async () => {
    const { socket, closed } = await rawSocket();
    socket.write('GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
    try {
      await within(closed, 5_000, 'slow headers');
    } finally {
      clearInterval(timer);
    }
  });

  it.each([
    ['an upload with the token', `/upload?name=a.zip&size=100000`, { 'X-Hnsight-Token': TOKEN }],
    ['an API call with the token', `/api/info`, { 'X-Hnsight-Token': TOKEN, 'Content-Type': 'application/json' }],
    ['a refused upload (no token)', `/upload?name=a.zip&size=100000`, {}],
  ])('drops %s whose body trickles in', async (_n, p, headers: Record<string, string>) => {
    const { socket, closed } = await rawSocket();
    const lines = Object.entries({ Host: `127.0.0.1:${server.port}`, 'Content-Length': '100000', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`POST ${p} HTTP/1.1\r\n${lines.join('')}\r\n`);
    const timer = setInterval(() => socket.write('x'), 50);
    try {
      expect(await within(closed, 5_000, 'trickled body')).toBeLessThan(5_000);
    } finally {
      clearInterval(timer);
    }
  });

  it('keeps the event stream open past the idle timeout, with heartbeats', async () => {
    const got: string[] = [];
    const req = http.request({ host: '127.0.0.1', port: server.port, path: '/events', headers: { 'X-Hnsight-Token': TOKEN } });
    let ended = false;
    req.on('response', (res) => {
      res.on('data', (c: Buffer) => got.push(c.toString()));
      res.on('close', () => (ended = true));
    });
    req.on('error', () => (ended = true));
    req.end();
    // Three idle timeouts.
    await new Promise((r) => setTimeout(r, 1_800));
    expect(ended).toBe(false);
    expect(got.join('').match(/: ping/g)?.length ?? 0).toBeGreaterThanOrEqual(5);
    req.destroy();
  });
});
