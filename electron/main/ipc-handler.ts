// The one place an IPC request from the renderer is let in. No 'electron' import: the main process
// hands over what it knows about the sender, so this is unit-tested under plain Node.
//
// Order: who is calling (our window, our own index page, its main frame) → which method (one of the
// contract's) → are the arguments what the contract says (zod, strict) → only then the backend.
// Replies are plain data: `{ value }` on success, `{ error: message }` on failure (never a stack).
// `{ value }` rather than the bare value because some replies legitimately carry an `error` field
// (a failed load's JobState).
import { fileURLToPath } from 'node:url';
import { METHODS, requestSecrets, validateRequest, ValidationError, withoutSecrets, type Method, type Request, type Responses } from '../../contract/api.ts';

export type IpcReply = { value: unknown } | { error: string };

/** What the main process knows about the frame that sent an IPC message. */
export interface SenderInfo {
  /** `event.senderFrame?.url` (undefined when the frame is gone). */
  url: string | undefined;
  /** `event.sender` is our window's webContents. */
  isOurWindow: boolean;
  /** The sending frame is the top frame (no parent). */
  isMainFrame: boolean;
}

/** What the handler needs from the backend (services/backend.ts `Backend`). */
export interface CallableBackend {
  call(method: string, body: unknown): Promise<unknown>;
}

/** Methods the shell answers itself (native dialogs), with arguments already validated. */
export type LocalHandlers = { [M in Method]?: (req: Request<M>) => Promise<Responses[M]> };

export const IPC_PREFIX = 'hnsight:';
export const COMMAND_CHANNEL = 'hnsight:command';

export function channelFor(method: Method): string {
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
  const a = filePathOf(url);
  const b = filePathOf(indexUrl);
  if (a === null || b === null) return false;
  return platform === 'win32' || platform === 'darwin' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

export class SenderError extends Error {
  override name = 'SenderError';
}

/** Throws a SenderError unless the message comes from our window's top frame showing our index page. */
export function checkSender(sender: SenderInfo, indexUrl: string): void {
  if (!sender.isOurWindow) throw new SenderError('refused: the request does not come from the hnsight window');
  if (!sender.isMainFrame) throw new SenderError('refused: the request comes from a sub-frame');
  if (!isAppIndexUrl(sender.url, indexUrl)) throw new SenderError(`refused: the request comes from ${describeUrl(sender.url)}, not the hnsight page`);
}

function describeUrl(url: string | undefined): string {
  if (!url) return 'a frame that is gone';
  return JSON.stringify(url.length > 120 ? url.slice(0, 120) + '…' : url);
}

export interface HandleOptions {
  backend: CallableBackend;
  indexUrl: string;
  local?: LocalHandlers;
  /** Called after a successful call (e.g. to refresh the recent-files menu). Errors in it are ignored. */
  afterCall?: (method: Method, req: unknown, value: unknown) => void;
  /** Where unexpected (non-validation) errors are logged with their stack; never sent to the renderer. */
  log?: (message: string) => void;
}

/** Handles one request: sender check, validation, dispatch. Never throws; returns an IpcReply. */
export async function handleIpc(method: string, body: unknown, sender: SenderInfo, opts: HandleOptions): Promise<IpcReply> {
  try {
    checkSender(sender, opts.indexUrl);
    const { method: m, req } = validateRequest(method, body);
    const local = opts.local?.[m] as ((r: unknown) => Promise<unknown>) | undefined;
    const value = local ? await local(req) : await opts.backend.call(m, req);
    try {
      opts.afterCall?.(m, req, value);
    } catch {
      // A menu refresh failing must not fail the call.
    }
    return { value };
  } catch (e) {
    // A request that carries a password (startCollect): neither the log nor the reply may show it.
    // The body itself is never logged.
    const secrets = requestSecrets(method, body);
    if (!(e instanceof ValidationError) && !(e instanceof SenderError)) {
      const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
      opts.log?.(`hnsight: ${method} failed: ${withoutSecrets(detail, secrets, '(details withheld: they contained the password)')}`);
    }
    return { error: withoutSecrets(errorMessage(e), secrets, `${method} failed (the message is withheld because it contained the password)`) };
  }
}

/** A one-line, stack-free message for the renderer. */
export function errorMessage(e: unknown): string {
  const msg = e instanceof Error ? e.message : typeof e === 'string' ? e : 'unexpected error';
  const line = msg.split(/\r?\n/, 1)[0] || 'unexpected error';
  return line.length > 2000 ? line.slice(0, 2000) + '…' : line;
}

export { METHODS };
