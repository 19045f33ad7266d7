// The one place an IPC request from the renderer is let in. No 'electron' import: the main process
// hands over what it knows about the sender, so this is unit-tested under plain Node.
//
// Order: who is calling (our window, our own index page, its main frame) → the backend's dispatch,
// which validates the request against the contract (once) and answers with the reply envelope of
// contract/envelope.ts, the same as over HTTP.
import { fileURLToPath } from 'node:url';
import { API_METHOD_NAMES, type Envelope } from '../../contract/index.ts';

/** What the main process knows about the frame that sent an IPC message. */
export interface SenderInfo {
  /** `event.senderFrame?.url` (undefined when the frame is gone). */
  url: string | undefined;
  /** `event.sender` is our window's webContents. */
  isOurWindow: boolean;
  /** The sending frame is the top frame (no parent). */
  isMainFrame: boolean;
}

/** What the handler needs from the backend (services/backend/backend.ts `Backend`). */
export interface CallableBackend {
  call(method: string, body: unknown): Promise<Envelope>;
}

export const IPC_PREFIX = 'hnsight:';
export const COMMAND_CHANNEL = 'hnsight:command';
/** The methods, each on its own channel. */
export const METHODS = API_METHOD_NAMES;

export function channelFor(method: string): string {
  return IPC_PREFIX + method;
}

/** The file path a file: URL names, ignoring query and fragment (hash routing); null for anything else. */
function filePathOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'file:' || (u.host !== '' && u.host !== 'localhost')) return null;
  u.search = '';
  u.hash = '';
  try {
    return fileURLToPath(u);
  } catch {
    return null;
  }
}

/** True when `url` is the app's own index page (`indexUrl`), whatever its query or fragment. */
export function isAppIndexUrl(url: string | undefined, indexUrl: string, platform: NodeJS.Platform = process.platform): boolean {
  if (!url) return false;
  // The app's own scheme (app-protocol.ts): same scheme, host and path, exactly.
  if (!indexUrl.startsWith('file:')) {
    try {
      const a = new URL(url);
      const b = new URL(indexUrl);
      return a.protocol === b.protocol && a.host === b.host && a.pathname === b.pathname && a.username === '' && a.password === '';
    } catch {
      return false;
    }
  }
  const a = filePathOf(url);
  const b = filePathOf(indexUrl);
  if (a === null || b === null) return false;
  return platform === 'win32' || platform === 'darwin' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** Why a sender is refused, or undefined when it is our window's top frame showing our index page. */
export function senderRefusal(sender: SenderInfo, indexUrl: string): string | undefined {
  if (!sender.isOurWindow) return 'refused: the request does not come from the hnsight window';
  if (!sender.isMainFrame) return 'refused: the request comes from a sub-frame';
  if (!isAppIndexUrl(sender.url, indexUrl)) return `refused: the request comes from ${describeUrl(sender.url)}, not the hnsight page`;
  return undefined;
}

function describeUrl(url: string | undefined): string {
  if (!url) return 'a frame that is gone';
  return JSON.stringify(url.length > 120 ? url.slice(0, 120) + '…' : url);
}

export interface HandleOptions {
  backend: CallableBackend;
  indexUrl: string;
  /** Called after a successful call (e.g. to refresh the recent-files menu). Errors in it are ignored. */
  afterCall?: (method: string, req: unknown, value: unknown) => void;
}

/** Handles one request: sender check, then the backend's dispatch. Never throws; returns the envelope. */
export async function handleIpc(method: string, body: unknown, sender: SenderInfo, opts: HandleOptions): Promise<Envelope> {
  const refusal = senderRefusal(sender, opts.indexUrl);
  if (refusal) return { ok: false, kind: 'refused', error: refusal };
  const reply = await opts.backend.call(method, body);
  if (reply.ok) {
    try {
      opts.afterCall?.(method, body, reply.value);
    } catch {
      // A menu refresh failing must not fail the call.
    }
  }
  return reply;
}
