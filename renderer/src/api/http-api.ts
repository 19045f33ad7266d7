// Browser mode's implementation of the API contract: POST /api/<method> to `hnsight serve` (the reply
// envelope back), the job events from GET /events (Server-Sent Events), and a dropped file's bytes
// streamed to POST /upload. The token travels in an HttpOnly cookie the server set when the page was
// first opened with ?token=.
import type { ApiEvent, HnsightApi, Method, Request, Response } from '../../../contract/index.ts';
import { ApiError, unwrap } from '../../../contract/envelope.ts';
import { EVENT_PATH } from '../../../contract/events.ts';
import { API_METHOD_NAMES } from '../../../contract/methods.ts';
import { accessLostMessage, reportAccessLost } from './access-lost.ts';

async function readEnvelope(what: string, res: globalThis.Response): Promise<unknown> {
  const text = await res.text();
  if (res.status === 401) {
    // The token this tab carries is not this server's (restarted on the same port, or opened without
    // the printed URL): every call will fail alike, so the app says so once, in words.
    const message = accessLostMessage(text || 'open the URL hnsight printed when it started', location.host);
    reportAccessLost(message);
    throw new ApiError(message, 'refused');
  }
  try {
    return JSON.parse(text);
  } catch {
    // Not our JSON: a proxy, a server that went away, or a plain-text refusal (a wrong token).
    throw new ApiError(`${what}: the server answered ${res.status} ${res.statusText}${text ? ` (${text.slice(0, 300)})` : ''}`, res.status === 401 || res.status === 403 ? 'refused' : 'failed');
  }
}

async function call<M extends Method>(method: M, req: Request<M>): Promise<Response<M>> {
  const res = await fetch(`./api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(req ?? {}),
    credentials: 'same-origin',
  });
  return unwrap<Response<M>>(method, await readEnvelope(method, res));
}

async function upload(file: File): Promise<{ jobId: string }> {
  const what = `upload of ${file.name}`;
  const res = await fetch(`./upload?name=${encodeURIComponent(file.name)}&size=${file.size}`, {
    method: 'POST',
    body: file,
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/octet-stream' },
  });
  return unwrap<{ jobId: string }>(what, await readEnvelope(what, res));
}

/** Uploads files to be opened together (a cluster): each is saved by the server, not opened alone. */
async function localPaths(files: File[]): Promise<string[]> {
  const out: string[] = [];
  for (const file of files) {
    const what = `upload of ${file.name}`;
    const res = await fetch(`./upload?name=${encodeURIComponent(file.name)}&size=${file.size}&keep=1`, {
      method: 'POST',
      body: file,
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    out.push(unwrap<{ path: string }>(what, await readEnvelope(what, res)).path);
  }
  return out;
}

/**
 * One EventSource for the page, shared by every subscriber; the browser reconnects it on its own,
 * and every (re)connection is told to the subscribers so they fetch what they may have missed.
 */
function eventHub(): HnsightApi['subscribe'] {
  const listeners = new Set<(e: ApiEvent) => void>();
  const connected = new Set<() => void>();
  let source: EventSource | undefined;
  let open = false;
  return (listener, onConnected) => {
    listeners.add(listener);
    if (onConnected) connected.add(onConnected);
    if (!source && typeof EventSource !== 'undefined') {
      source = new EventSource(`.${EVENT_PATH}`, { withCredentials: true });
      source.onopen = () => {
        open = true;
        for (const c of [...connected]) c();
      };
      source.onerror = () => {
        open = false;
      };
      source.onmessage = (m) => {
        let e: ApiEvent;
        try {
          e = JSON.parse(m.data as string) as ApiEvent;
        } catch {
          return;
        }
        for (const l of [...listeners]) l(e);
      };
    } else if (open && onConnected) queueMicrotask(onConnected);
    return () => {
      listeners.delete(listener);
      if (onConnected) connected.delete(onConnected);
    };
  };
}

export function createHttpApi(): HnsightApi {
  const api: Record<string, unknown> = {
    onCommand: () => () => {},
    subscribe: eventHub(),
    openFile: upload,
    localPaths,
  };
  for (const m of API_METHOD_NAMES) api[m] = (req: unknown) => call(m, req as never);
  return api as HnsightApi;
}
