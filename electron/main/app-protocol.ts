// The desktop app's own scheme, app://hnsight/ (Electron security checklist item 18: "Use a custom
// protocol instead of file://"). Under file:// the page's origin is every file on the disk; under
// app://hnsight/ it is only the built renderer folder, served by this handler with the CSP as a
// response header. Kept free of a runtime 'electron' import: index.ts registers the scheme and hands
// requests here, and the tests call the handler under plain Node.
import { STATIC_TYPES } from '../../services/static-types.ts';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CSP_HEADER } from './security.ts';

export const APP_SCHEME = 'app';
export const APP_HOST = 'hnsight';
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * protocol.registerSchemesAsPrivileged's privileges: a standard, secure scheme (an origin of its own,
 * 'self' in the CSP, sessionStorage, module workers) that fetch may read; no CORS, no service workers.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, stream: true, corsEnabled: false, allowServiceWorkers: false, bypassCSP: false } as const;


export type AppFile = { file: string } | { status: 400 | 403 | 404; reason: string };

/**
 * The file under `root` an app:// URL names, or why none: another scheme or host, a path that climbs
 * out (`..`, also percent-encoded), a backslash or NUL, a name that is not a plain path.
 */
export function resolveAppFile(url: string, root: string): AppFile {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { status: 400, reason: 'not a URL' };
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return { status: 403, reason: `not ${APP_SCHEME}://${APP_HOST}/` };
  let rel: string;
  try {
    rel = decodeURIComponent(u.pathname);
  } catch {
    return { status: 400, reason: 'bad percent-encoding' };
  }
  if (rel.includes('\0') || rel.includes('\\')) return { status: 403, reason: 'refused path' };
  if (rel.split('/').some((seg) => seg === '..')) return { status: 403, reason: 'path climbs out of the app' };
  if (rel === '/' || rel === '') rel = '/index.html';
  const base = path.resolve(root);
  const file = path.resolve(base, '.' + rel);
  if (!file.startsWith(base + path.sep)) return { status: 403, reason: 'path climbs out of the app' };
  return { file };
}

/** Answers one app:// request from the files under `root` (GET and HEAD only; symlinks that leave `root` refused). */
export async function serveAppRequest(request: { url: string; method: string }, root: string): Promise<Response> {
  const headers = { 'Content-Security-Policy': CSP_HEADER, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('method not allowed', { status: 405, headers });
  const r = resolveAppFile(request.url, root);
  if ('status' in r) return new Response(r.reason, { status: r.status, headers });
  try {
    const [real, realRoot] = await Promise.all([fs.realpath(r.file), fs.realpath(root)]);
    if (!real.startsWith(realRoot + path.sep)) return new Response('path climbs out of the app', { status: 403, headers });
    const st = await fs.stat(real);
    if (!st.isFile()) return new Response('not found', { status: 404, headers });
    const body = request.method === 'HEAD' ? null : await fs.readFile(real);
    return new Response(body, { status: 200, headers: { ...headers, 'Content-Type': STATIC_TYPES[path.extname(real).toLowerCase()] ?? 'application/octet-stream' } });
  } catch {
    return new Response('not found', { status: 404, headers });
  }
}
