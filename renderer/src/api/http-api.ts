// Browser mode's implementation of the API contract: POST /api/<method> to `hnsight serve` (the reply
// envelope back), the job events from GET /events (Server-Sent Events read with fetch), and a dropped
// file's bytes streamed to POST /upload. The token travels in the X-Hnsight-Token header only, taken
// once from the URL the tab was opened with and kept in its sessionStorage (tab-token.ts).
import type { HnsightApi, Method, Request, Response } from '../../../contract/index.ts';
import { ApiError, unwrap } from '../../../contract/envelope.ts';
import { EVENT_PATH } from '../../../contract/events.ts';
import { API_METHOD_NAMES } from '../../../contract/methods.ts';
import { accessLostMessage, reportAccessLost } from './access-lost.ts';
import { eventStream } from './event-stream.ts';
import { pageToken, TOKEN_HEADER } from './tab-token.ts';

let token: string | undefined;
/** The headers every request carries: the tab's token (none when the tab was opened without it: the server says so). */
function auth(): Record<string, string> {
  return token ? { [TOKEN_HEADER]: token } : {};
}

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
    headers: { 'Content-Type': 'application/json', ...auth() },
    body: JSON.stringify(req ?? {}),
    credentials: 'omit',
  });
  return unwrap<Response<M>>(method, await readEnvelope(method, res));
}

async function upload(file: File): Promise<{ jobId: string }> {
  const what = `upload of ${file.name}`;
  const res = await fetch(`./upload?name=${encodeURIComponent(file.name)}&size=${file.size}`, {
    method: 'POST',
    body: file,
    credentials: 'omit',
    headers: { 'Content-Type': 'application/octet-stream', ...auth() },
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
      credentials: 'omit',
      headers: { 'Content-Type': 'application/octet-stream', ...auth() },
    });
    out.push(unwrap<{ path: string }>(what, await readEnvelope(what, res)).path);
  }
  return out;
}

export function createHttpApi(): HnsightApi {
  token = pageToken();
  const api: Record<string, unknown> = {
    onCommand: () => () => {},
    subscribe: eventStream({
      url: `.${EVENT_PATH}`,
      headers: auth,
      // A refused token ends the stream: readEnvelope reports it (the app shows it once) and throws.
      refused: (res) => readEnvelope('events', res).then(() => false, () => true),
    }),
    openFile: upload,
    localPaths,
  };
  for (const m of API_METHOD_NAMES) api[m] = (req: unknown) => call(m, req as never);
  return api as HnsightApi;
}
