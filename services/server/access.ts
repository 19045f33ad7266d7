// Who may talk to browser mode: this machine only, naming us by our loopback address (no DNS
// rebinding); for the API, uploads and events, a request carrying the token in a header; and for
// anything that changes state, a request from our own page (Origin / Sec-Fetch-Site).
//
// The token never travels in a cookie: cookies are not scoped by port, so every other web service on
// 127.0.0.1 the user visits would receive it (issue #28). The page takes the token from the URL it was
// opened with, keeps it in its tab's sessionStorage (one origin, one tab) and sends it as
// `X-Hnsight-Token`, which no other origin's page can make a browser send to us. The renderer's own
// files carry nothing secret and are served without it, so a reload (the URL cleaned of the token)
// still loads the page that then finds its token again.
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The header the page sends the token in (lower case, as Node presents headers). */
export const TOKEN_HEADER = 'x-hnsight-token';

export interface AccessRequest {
  remoteAddress?: string;
  host?: string;
  port: number;
  /** The request reaches the API, an upload or the event stream (not the renderer's static files). */
  needsToken: boolean;
  headerToken?: string;
}

export type Denial = { status: number; message: string };

/** The paths that need the token: everything that reaches the backend. */
export function needsToken(pathname: string): boolean {
  return pathname.startsWith('/api/') || pathname === '/upload' || pathname === '/events';
}

/** Every request must come from this machine and name us by our loopback address; the backend's paths need the token too. */
export function checkAccess(r: AccessRequest, tokenOk: (t: string | undefined) => boolean): Denial | undefined {
  if (!LOOPBACK.has(r.remoteAddress ?? '')) return { status: 403, message: 'hnsight serves this machine only' };
  // A page on another site must not reach us through a name that resolves to 127.0.0.1 (DNS rebinding).
  if (r.host !== `127.0.0.1:${r.port}` && r.host !== `localhost:${r.port}`) return { status: 403, message: 'unexpected Host header' };
  if (!r.needsToken || tokenOk(r.headerToken)) return undefined;
  return {
    status: 401,
    message: r.headerToken
      ? 'this page belongs to an hnsight server that is no longer running on this port, or its token changed: open the URL the running hnsight printed when it started'
      : 'this tab was opened without the token: open the URL hnsight printed when it started (a reloaded tab keeps its token; a new tab needs that URL again)',
  };
}

export interface OriginRequest {
  method: string;
  port: number;
  origin?: string;
  secFetchSite?: string;
}

/**
 * A state-changing request (anything but GET/HEAD) must come from our own page: Chromium and Firefox
 * send Origin on every POST and Sec-Fetch-Site on every request, so a page on another port of
 * 127.0.0.1 (same site, another origin) is told apart. A client that sends neither (curl, tests) is
 * not a browser page and carries the token itself.
 */
export function checkOrigin(r: OriginRequest): Denial | undefined {
  if (r.method === 'GET' || r.method === 'HEAD') return undefined;
  const own = new Set([`http://127.0.0.1:${r.port}`, `http://localhost:${r.port}`]);
  if (r.origin !== undefined && !own.has(r.origin)) return { status: 403, message: `refused: the request comes from another page (${r.origin.slice(0, 100)})` };
  if (r.secFetchSite !== undefined && r.secFetchSite !== 'same-origin' && r.secFetchSite !== 'none') {
    return { status: 403, message: `refused: the request comes from another page (Sec-Fetch-Site: ${r.secFetchSite.slice(0, 40)})` };
  }
  return undefined;
}
