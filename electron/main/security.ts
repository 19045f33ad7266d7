// The window's security settings and the URL / permission policies, kept free of a runtime 'electron'
// import so tests can assert them under plain Node.
import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The renderer's Content-Security-Policy, for the `<meta http-equiv="Content-Security-Policy">` of
 * renderer/index.html (file:// has no response headers) and for `hnsight serve`'s response header.
 * `frame-ancestors` is ignored in a meta tag (CSP3 §6.4.2), so only the header form carries it.
 */
export const CSP_DIRECTIVES = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
] as const;
export const CSP_META = CSP_DIRECTIVES.join('; ');
export const CSP_HEADER = [...CSP_DIRECTIVES, "frame-ancestors 'none'"].join('; ');

/** BrowserWindow options for the one hnsight window. */
export function windowOptions(opts: {
  preload: string;
  bounds?: { x?: number; y?: number; width: number; height: number };
  devTools: boolean;
  icon?: string;
}): BrowserWindowConstructorOptions {
  return {
    ...(opts.bounds ?? { width: 1400, height: 900 }),
    minWidth: 800,
    minHeight: 500,
    show: false,
    title: 'hnsight',
    backgroundColor: '#1e1e1e',
    ...(opts.icon ? { icon: opts.icon } : {}),
    webPreferences: {
      preload: opts.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: opts.devTools,
    },
  };
}

/** Links the app may hand to the system browser: https only, no credentials in the URL. */
export function isAllowedExternalUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === 'https:' && u.username === '' && u.password === '' && u.hostname !== '';
}

/**
 * Permission requests: all refused, except writing (sanitized) text to the clipboard from our own
 * page, which the UI's "copy" buttons need and which reads nothing.
 */
export function isPermissionAllowed(permission: string, requestingUrl: string | undefined, isOwnPage: (url: string | undefined) => boolean): boolean {
  return permission === 'clipboard-sanitized-write' && isOwnPage(requestingUrl);
}

/** Requests that leave the machine. The app loads nothing remote, so the session cancels them all. */
export const REMOTE_URL_PATTERNS = ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'];
