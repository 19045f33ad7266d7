// Browser mode's token, per tab. The page is opened with `?token=…` (the URL `hnsight serve` prints);
// the token is moved to this tab's sessionStorage — one origin (so one server's port), one tab, kept
// across reloads — and the URL is cleaned with history.replaceState so the address bar and the page's
// history entry no longer show it. It travels only as the X-Hnsight-Token header, never in a cookie
// (cookies are not scoped by port: every web service on 127.0.0.1 would receive it).
// Pure: the page's location, storage and history are passed in, so it is unit-tested without a DOM.

export const TOKEN_HEADER = 'X-Hnsight-Token';
const KEY = 'hnsight.token';

export interface TokenPlace {
  href: string;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  /** history.replaceState with this path (path + search + hash, the token removed). */
  replaceUrl(pathAndQuery: string): void;
}

/** The tab's token: from the URL (which is then cleaned), else from the tab's storage; undefined when the tab has none. */
export function takeTabToken(p: TokenPlace): string | undefined {
  const url = new URL(p.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      p.storage?.setItem(KEY, fromUrl);
    } catch {
      // Storage refused (a private mode's quota): the token lives as long as this page.
    }
    url.searchParams.delete('token');
    p.replaceUrl(url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return p.storage?.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Takes the token of the page this code runs in (once, when the HTTP API is made). */
export function pageToken(): string | undefined {
  let storage: Storage | undefined;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = undefined;
  }
  return takeTabToken({ href: location.href, storage, replaceUrl: (u) => history.replaceState(history.state, '', u) });
}
