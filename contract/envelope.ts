// The one reply envelope of every call, over IPC and over HTTP alike. `{ ok, value }` rather than the
// bare value because some replies legitimately carry an `error` field (a failed load's LoadJob).
export type ErrorKind =
  /** The request does not fit the contract (unknown method, bad arguments). */
  | 'invalid'
  /** The request fits but names something that is not there (a closed bundle, a missing file). */
  | 'not-found'
  /** Not allowed: a path the user did not choose, a sender that is not the app. */
  | 'refused'
  /** Anything else: the call ran and failed. */
  | 'failed';

export type Envelope<T = unknown> = { ok: true; value: T } | { ok: false; error: string; kind: ErrorKind };

/** The HTTP status of an envelope (browser mode). */
export function httpStatus(e: Envelope): number {
  if (e.ok) return 200;
  return { invalid: 400, 'not-found': 404, refused: 403, failed: 500 }[e.kind];
}

/** An error a handler throws on purpose: its message is for the user, its kind sets the envelope's. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly kind: ErrorKind = 'failed',
  ) {
    super(message);
  }
}

/** Unwraps an envelope on the client side: the value, or an Error with the message. */
export function unwrap<T>(method: string, reply: unknown): T {
  if (!reply || typeof reply !== 'object' || typeof (reply as { ok?: unknown }).ok !== 'boolean') {
    throw new ApiError(`${method}: the backend gave no answer`, 'failed');
  }
  const r = reply as Envelope<T>;
  if (r.ok) return r.value;
  throw new ApiError(r.error, r.kind);
}
