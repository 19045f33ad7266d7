// Who may talk to browser mode: this machine only, naming us by our loopback address (no DNS
// rebinding), carrying the token; and for anything that changes state, a request from our own page
// (Origin / Sec-Fetch-Site), so another page on 127.0.0.1 cannot use the cookie the browser holds.
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export interface AccessRequest {
  remoteAddress?: string;
  host?: string;
  port: number;
  cookie?: string;
  cookieName: string;
  headerToken?: string;
  queryToken?: string;
}

export type Denial = { status: number; message: string };

/** The cookie that carries this server's token: one per port, so two servers in one browser do not overwrite each other's. */
export function cookieName(port: number): string {
  return `hnsight_token_${port}`;
}

/** The token a Cookie header carries under `name`. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Every request must come from this machine, name us by our loopback address, and carry the token. */
export function checkAccess(r: AccessRequest, tokenOk: (t: string | undefined) => boolean): Denial | undefined {
  if (!LOOPBACK.has(r.remoteAddress ?? '')) return { status: 403, message: 'hnsight serves this machine only' };
  // A page on another site must not reach us through a name that resolves to 127.0.0.1 (DNS rebinding).
  if (r.host !== `127.0.0.1:${r.port}` && r.host !== `localhost:${r.port}`) return { status: 403, message: 'unexpected Host header' };
  const fromCookie = cookieValue(r.cookie, r.cookieName);
  if (!tokenOk(fromCookie) && !tokenOk(r.headerToken) && !tokenOk(r.queryToken)) {
    const other = /(?:^|;\s*)hnsight_token_\d+=/.test(r.cookie ?? '');
    return {
      status: 401,
      message: other
        ? 'this page belongs to an hnsight server that is no longer running on this port, or its token changed: open the URL the running hnsight printed when it started'
        : 'missing or wrong token: open the URL hnsight printed when it started',
    };
  }
  return undefined;
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
 * 127.0.0.1 (same site for cookies, another origin) is told apart. A client that sends neither (curl,
 * tests with the token in a header) is not a browser page and carries the token itself.
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
