// Browser mode's implementation of the API contract: POST /api/<method> to `hnsight serve`. The
// token travels in an HttpOnly cookie the server set when the page was first opened with ?token=.
import type { HnsightApi, Method, Request, Responses } from '../../../contract/api.ts';
import { API_METHODS } from './methods.ts';

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function call<M extends Method>(method: M, req: Request<M>): Promise<Responses[M]> {
  const res = await fetch(`./api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(req ?? {}),
    credentials: 'same-origin',
  });
  let body: { result?: unknown; error?: string } = {};
  try {
    body = await res.json();
  } catch {
    throw new ApiError(`${method}: the server answered ${res.status} ${res.statusText}`, res.status);
  }
  if (!res.ok || body.error) throw new ApiError(body.error ?? `${method} failed (${res.status})`, res.status);
  return body.result as Responses[M];
}

export function createHttpApi(): HnsightApi {
  const api = { onCommand: () => () => {} } as unknown as Record<string, unknown>;
  for (const m of API_METHODS) api[m] = (req: unknown) => call(m, req as never);
  return api as unknown as HnsightApi;
}
