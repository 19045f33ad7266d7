// Browser mode: serves the renderer build and the API contract over HTTP on 127.0.0.1 only, behind a
// random token. For tests here (Electron cannot run on these machines) and for people on a jump host.
//   POST /api/<method>   a call of the contract: JSON request in, the reply envelope out
//   POST /upload?name=&size=   a dropped file's bytes (contract uploadSchema); the envelope of { jobId }
//   POST /upload?…&keep=1     one of several files opened together as a cluster; the envelope of { path }
//   GET  /events         the job events as Server-Sent Events (with a heartbeat comment every 15 s)
//   GET  anything else   the renderer's static files (no token needed: nothing secret; the first
//                        visit carries ?token=, which the page moves to its tab's sessionStorage)
// The API, uploads and events need the token in the X-Hnsight-Token header (access.ts says why
// never a cookie). Sockets are bounded (connection-limits.ts): a cap on connections, header, request
// and idle timeouts, and uploads that stall are dropped.
import { STATIC_TYPES } from '../static-types.ts';
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { EVENT_PATH, PASTE_MAX_BYTES, httpStatus, notesRequestMaxBytes, uploadSchema, type Envelope } from '../../contract/index.ts';
import type { Backend } from '../backend/backend.ts';
import { checkAccess, checkOrigin, needsToken, TOKEN_HEADER } from './access.ts';
import { applyConnectionLimits, checkInterval, connectionLimits, watchBodyProgress, type ConnectionLimits } from './connection-limits.ts';
import { BodyTooLarge, readBody } from './body.ts';
import { sweepUploads, Uploads, UploadTooLarge } from './uploads.ts';
import { streamEvents } from './events.ts';
import { limitsFromEnv } from '../bundle/limits.ts';

export const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const MAX_BODY = 1024 * 1024;
/**
 * Calls that carry a pasted text take more: the text's own limit (the handler refuses past it, in
 * words) with room for JSON's escapes (a CRLF becomes four characters).
 */
const PASTE_METHODS = new Set(['addPaste', 'recognisePaste']);
const MAX_PASTE_BODY = 2 * PASTE_MAX_BYTES + 64 * 1024;
/** saveNotes takes any notes the notes file's limits allow (contract/limits.ts works out how many bytes that can be). */
const MAX_NOTES_BODY = notesRequestMaxBytes();
const SECURITY_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export interface ServerOptions {
  backend: Backend;
  staticDir: string;
  port?: number;
  /** Fixed token (tests); random otherwise. */
  token?: string;
  /** Largest upload accepted (bytes); by default the per-bundle read budget: nothing bigger could load. */
  uploadLimit?: number;
  /** Socket limits; the defaults suit one user's browser (tests shorten them). */
  limits?: Partial<ConnectionLimits>;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const tokenBuf = Buffer.from(token);
  const staticRoot = path.resolve(opts.staticDir);
  // What a server of this user that was killed left behind goes first.
  await sweepUploads();
  const uploads = new Uploads(opts.uploadLimit ?? limitsFromEnv().maxTotalBytes, (dir) => opts.backend.distrust(dir));
  // An upload lives as long as its bundle: closed, pushed out by newer ones, or never loaded, it goes.
  const stopReleasing = opts.backend.onBundleReleased((location) => void uploads.release(location));
  let port = 0;
  const limits = connectionLimits(opts.limits);

  const tokenOk = (candidate: string | undefined) => {
    if (!candidate) return false;
    const b = Buffer.from(candidate);
    return b.length === tokenBuf.length && timingSafeEqual(b, tokenBuf);
  };

  // Every failure of a request is answered inside handle(); the server's callback only starts it.
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const send = (status: number, body: string | Buffer, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': type, ...SECURITY_HEADERS, ...extra });
      res.end(body);
    };
    const reply = (e: Envelope) => send(httpStatus(e), JSON.stringify(e), 'application/json');
    // A body that trickles in holds a socket (and an upload slot): one that stalls is dropped, refused or not.
    watchBodyProgress(req, limits);
    try {
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      const headerToken = one(req.headers[TOKEN_HEADER]);
      const denied =
        checkAccess({ remoteAddress: req.socket.remoteAddress, host: req.headers.host, port, needsToken: needsToken(url.pathname), headerToken }, tokenOk) ??
        checkOrigin({ method: req.method ?? 'GET', port, origin: req.headers.origin, secFetchSite: one(req.headers['sec-fetch-site']) });
      if (denied) return send(denied.status, denied.message);

      if (url.pathname === '/upload') {
        if (req.method !== 'POST') return send(405, 'use POST');
        const keep = url.searchParams.get('keep') === '1';
        const parsed = uploadSchema.safeParse({ name: url.searchParams.get('name') ?? '', size: Number(url.searchParams.get('size') ?? NaN), ...(keep ? { keep } : {}) });
        if (!parsed.success) return reply({ ok: false, kind: 'invalid', error: `bad upload: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}` });
        try {
          const saved = await uploads.save(req, parsed.data.name, parsed.data.size);
          // Kept for a cluster opened from several files (openCluster { paths }); else opened now.
          if (parsed.data.keep) {
            // The server's own file, so the page may open it (with the others) as a cluster.
            opts.backend.allowOpen(saved);
            return reply({ ok: true, value: { path: saved } });
          }
          return reply({ ok: true, value: opts.backend.startLoad(saved, { remember: false }) });
        } catch (e) {
          if (e instanceof UploadTooLarge) return send(413, JSON.stringify({ ok: false, kind: 'refused', error: e.message }), 'application/json');
          throw e;
        }
      }

      if (url.pathname === EVENT_PATH) {
        if (req.method !== 'GET') return send(405, 'use GET');
        // The stream stays open as long as the page does: no idle timeout (its heartbeat keeps it busy anyway).
        req.socket.setTimeout(0);
        return streamEvents(res, (l) => opts.backend.onEvent(l), SECURITY_HEADERS, limits.heartbeatMs);
      }

      if (url.pathname.startsWith('/api/')) {
        if (req.method !== 'POST') return send(405, 'use POST');
        if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return send(415, 'send JSON');
        const method = url.pathname.slice(5);
        const paste = PASTE_METHODS.has(method);
        let body: string;
        try {
          body = await readBody(req, paste ? MAX_PASTE_BODY : method === 'saveNotes' ? MAX_NOTES_BODY : MAX_BODY);
        } catch (e) {
          if (e instanceof BodyTooLarge) {
            const error = paste ? 'the pasted text is too large: a paste holds at most 64 MiB; save it as a file and open the file instead' : 'request body too large';
            return send(413, JSON.stringify({ ok: false, kind: paste ? 'refused' : 'invalid', error }), 'application/json');
          }
          throw e;
        }
        let parsed: unknown;
        try {
          parsed = body.length ? JSON.parse(body) : {};
        } catch {
          return reply({ ok: false, kind: 'invalid', error: 'the request body is not JSON' });
        }
        return reply(await opts.backend.call(method, parsed));
      }

      if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
      let rel: string;
      try {
        rel = decodeURIComponent(url.pathname);
      } catch {
        // Not percent-encoding at all: the client's mistake, not the server's.
        return send(400, 'bad request: the path is not valid percent-encoding');
      }
      if (rel === '/' || rel === '') rel = '/index.html';
      const file = path.resolve(staticRoot, '.' + rel);
      if (!file.startsWith(staticRoot + path.sep)) return send(404, 'not found');
      let data: Buffer;
      try {
        data = await fs.readFile(file);
      } catch {
        return send(404, 'not found');
      }
      return send(200, data, STATIC_TYPES[path.extname(file)] ?? 'application/octet-stream');
    } catch (e) {
      if (!res.headersSent) send(500, `internal error: ${e instanceof Error ? e.message : String(e)}`);
      else res.end();
    }
  };
  const server = http.createServer({ connectionsCheckingInterval: checkInterval(limits) }, (req, res) => void handle(req, res));

  applyConnectionLimits(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      await new Promise<void>((r) => {
        server.close(() => r());
        // Keep-alive connections and event streams would hold close() open indefinitely.
        server.closeAllConnections();
      });
      stopReleasing();
      await uploads.clear();
    },
  };
}

function one(h: string | string[] | undefined): string | undefined {
  return Array.isArray(h) ? h[0] : h;
}
