// Validation at the transport edge: the one place a request is checked against its schema, and the
// rules that keep a password out of every error message.
import { requests, type Method, type Request } from './schemas.ts';
import { ApiError } from './envelope.ts';

export const METHODS = Object.keys(requests) as Method[];

/** Methods whose requests carry a secret: their bodies are never logged, and no error about them may echo it. */
export const SECRET_METHODS: readonly Method[] = ['startCollect'];

/** The secrets a request body carries (the password of startCollect), whether or not the body is valid. */
export function requestSecrets(method: string, body: unknown): string[] {
  if (!(SECRET_METHODS as string[]).includes(method) || !body || typeof body !== 'object') return [];
  const pw = (body as { password?: unknown }).password;
  return typeof pw === 'string' && pw.length > 0 ? [pw] : [];
}

/** A message that would show a secret becomes a generic one (partial masking would still hint at it). */
export function withoutSecrets(message: string, secrets: readonly string[], generic: string): string {
  return secrets.some((s) => s && message.includes(s)) ? generic : message;
}

export function isMethod(method: string): method is Method {
  return Object.prototype.hasOwnProperty.call(requests, method);
}

/** Parses a request for a method; throws an ApiError of kind 'invalid' with a readable message. */
export function validateRequest<M extends Method>(method: string, body: unknown): { method: M; req: Request<M> } {
  if (!isMethod(method)) throw new ApiError(`unknown method ${JSON.stringify(method).slice(0, 80)}`, 'invalid');
  const r = requests[method].safeParse(body ?? {});
  if (!r.success) {
    // zod messages name unknown keys and can quote what they received: for a method that carries a
    // secret, a message containing it is replaced by one that names only the fields.
    const msg = `bad arguments for ${method}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`;
    const fields = [...new Set(r.error.issues.map((i) => i.path.join('.') || '(root)'))].join(', ');
    throw new ApiError(withoutSecrets(msg, requestSecrets(method, body), `bad arguments for ${method} (in ${fields}; details withheld because they would show the password)`), 'invalid');
  }
  return { method: method as M, req: r.data as Request<M> };
}
