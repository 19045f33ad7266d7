// Browser mode: serves the renderer build and the API contract over HTTP on 127.0.0.1 only, behind a
// random token. For tests here (Electron cannot run on these machines) and for people on a jump host.
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { ValidationError } from '../contract/api.ts';
import { Backend, BackendError } from './backend.ts';

export const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const COOKIE = 'hnsight_token';
const MAX_BODY = 1024 * 1024;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

export interface ServerOptions {
  backend: Backend;
  staticDir: string;
  port?: number;
  /** Fixed token (tests); random otherwise. */
  token?: string;
  /** Largest upload accepted (bytes). */
  uploadLimit?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export interface AccessRequest {
  remoteAddress?: string;
  host?: string;
  port: number;
  cookie?: string;
  headerToken?: string;
  queryToken?: string;
}

/** Every request must come from this machine, name us by our loopback address, and carry the token. */
export function checkAccess(r: AccessRequest, tokenOk: (t: string | undefined) => boolean): { status: number; message: string } | undefined {
  if (!LOOPBACK.has(r.remoteAddress ?? '')) return { status: 403, message: 'hnsight serves this machine only' };
  // A page on another site must not reach us through a name that resolves to 127.0.0.1 (DNS rebinding).
  if (r.host !== `127.0.0.1:${r.port}` && r.host !== `localhost:${r.port}`) return { status: 403, message: 'unexpected Host header' };
  const cookieToken = /(?:^|;\s*)hnsight_token=([^;]+)/.exec(r.cookie ?? '')?.[1];
  if (!tokenOk(cookieToken) && !tokenOk(r.headerToken) && !tokenOk(r.queryToken)) {
    return { status: 401, message: 'missing or wrong token: open the URL hnsight printed when it started' };
  }
  return undefined;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const tokenBuf = Buffer.from(token);
  const staticRoot = path.resolve(opts.staticDir);
  let port = 0;

  const tokenOk = (candidate: string | undefined) => {
    if (!candidate) return false;
    const b = Buffer.from(candidate);
    return b.length === tokenBuf.length && timingSafeEqual(b, tokenBuf);
  };

  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: string | Buffer, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}) => {
      res.writeHead(status, {
        'Content-Type': type,
        'Content-Security-Policy': CSP,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-store',
        'Cross-Origin-Opener-Policy': 'same-origin',
        ...extra,
      });
      res.end(body);
    };
    try {
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      const queryToken = url.searchParams.get('token') ?? undefined;
      const headerToken = req.headers['x-hnsight-token'];
      const denied = checkAccess({
        remoteAddress: req.socket.remoteAddress,
        host: req.headers.host,
        port,
        cookie: req.headers.cookie,
        headerToken: typeof headerToken === 'string' ? headerToken : undefined,
        queryToken,
      }, tokenOk);
      if (denied) return send(denied.status, denied.message);

      if (url.pathname === '/upload') {
        // Browser mode's drag-and-drop: the dropped .zip (or single file) is saved to a private temp
        // folder and opened like a path. Folders cannot be dropped into a browser page as one file.
        if (req.method !== 'POST') return send(405, 'use POST');
        const name = path.basename(url.searchParams.get('name') ?? 'bundle.zip').replace(/[^\w.\- ]/g, '_') || 'bundle.zip';
        try {
          const saved = await saveUpload(req, name, opts.uploadLimit ?? 8 * 1024 ** 3);
          const result = opts.backend.startLoad(saved, false);
          return send(200, JSON.stringify({ result }), 'application/json');
        } catch (e) {
          return send(413, JSON.stringify({ error: e instanceof Error ? e.message : String(e) }), 'application/json');
        }
      }

      if (url.pathname.startsWith('/api/')) {
        if (req.method !== 'POST') return send(405, 'use POST');
        if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return send(415, 'send JSON');
        let body: string;
        try {
          body = await readBody(req);
        } catch {
          return send(413, JSON.stringify({ error: 'request body too large' }), 'application/json');
        }
        let parsed: unknown;
        try {
          parsed = body.length ? JSON.parse(body) : {};
        } catch {
          return send(400, JSON.stringify({ error: 'the request body is not JSON' }), 'application/json');
        }
        const method = url.pathname.slice(5);
        try {
          const result = await opts.backend.call(method, parsed);
          return send(200, JSON.stringify({ result: result ?? null }), 'application/json');
        } catch (e) {
          const status = e instanceof ValidationError ? 400 : e instanceof BackendError ? 404 : 500;
          return send(status, JSON.stringify({ error: e instanceof Error ? e.message : String(e) }), 'application/json');
        }
      }

      if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
      let rel = decodeURIComponent(url.pathname);
      if (rel === '/' || rel === '') rel = '/index.html';
      const file = path.resolve(staticRoot, '.' + rel);
      if (!file.startsWith(staticRoot + path.sep)) return send(404, 'not found');
      let data: Buffer;
      try {
        data = await fs.readFile(file);
      } catch {
        return send(404, 'not found');
      }
      const extra: Record<string, string> = {};
      // The first visit carries the token in the URL; a strict, HttpOnly cookie carries it afterwards.
      if (queryToken && tokenOk(queryToken)) extra['Set-Cookie'] = `${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict`;
      return send(200, data, TYPES[path.extname(file)] ?? 'application/octet-stream', extra);
    } catch (e) {
      if (!res.headersSent) send(500, `internal error: ${e instanceof Error ? e.message : String(e)}`);
      else res.end();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        // Keep-alive connections from the browser would hold close() open indefinitely.
        server.closeAllConnections();
      }),
  };
}

async function saveUpload(req: http.IncomingMessage, name: string, limit: number): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hnsight-upload-'));
  const file = path.join(dir, name);
  const fh = await fs.open(file, 'w', 0o600);
  let n = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      n += chunk.length;
      if (n > limit) throw new Error(`the upload is larger than ${limit} bytes`);
      await fh.write(chunk);
    }
  } finally {
    await fh.close();
  }
  return file;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    // Keep reading past the limit (discarding) so the client gets the 413 instead of a reset.
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => (n > MAX_BODY ? reject(new ValidationError('request body too large')) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}
