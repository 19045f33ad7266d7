// The one typed dispatch of the contract: a handler per method, checked by the compiler against the
// method's request and reply types; validation happens here, once, at the transport edge; every
// outcome is an envelope (contract/envelope.ts). No handler ever sees an unvalidated request.
import {
  ApiError, requestSecrets, validateRequest, withoutSecrets,
  type Envelope, type Method, type Request, type Response,
} from '../../contract/index.ts';

export type Handler<M extends Method> = (req: Request<M>) => Promise<Response<M>>;
export type Handlers = { [M in Method]: Handler<M> };

export interface DispatchOptions {
  /** Where unexpected failures are logged with their stack (never sent to the client). */
  log?: (message: string) => void;
}

export type Dispatcher = (method: string, body: unknown) => Promise<Envelope>;

export function createDispatcher(handlers: Handlers, opts: DispatchOptions = {}): Dispatcher {
  return async (method, body) => {
    const secrets = requestSecrets(method, body);
    try {
      const { method: m, req } = validateRequest(method, body);
      const value = await (handlers[m] as Handler<Method>)(req as Request<Method>);
      return { ok: true, value: value ?? null };
    } catch (e) {
      const known = e instanceof ApiError;
      if (!known) {
        const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
        opts.log?.(`hnsight: ${method} failed: ${withoutSecrets(detail, secrets, '(details withheld: they contained the password)')}`);
      }
      const message = withoutSecrets(oneLine(e), secrets, `${method} failed (the message is withheld because it contained the password)`);
      return { ok: false, error: message, kind: known ? e.kind : 'failed' };
    }
  };
}

/** A one-line, stack-free message for the client. */
export function oneLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : typeof e === 'string' ? e : 'unexpected error';
  const line = msg.split(/\r?\n/, 1)[0] || 'unexpected error';
  return line.length > 2000 ? line.slice(0, 2000) + '…' : line;
}
