// MS-WSMV message encryption over HTTP: the multipart/encrypted body carrying an NTLM-sealed SOAP
// message (byte-exact to what pywinrm and Windows send). Pure.
import { concat } from './crypto.ts';
import { fromLatin1, latin1 } from './bytes.ts';
import type { NtlmSession } from './ntlm.ts';

export const BOUNDARY = 'Encrypted Boundary';
export const ENCRYPTED_PROTOCOL = 'application/HTTP-SPNEGO-session-encrypted';
export const ENCRYPTED_CONTENT_TYPE = `multipart/encrypted;protocol="${ENCRYPTED_PROTOCOL}";boundary="${BOUNDARY}"`;

export class FramingError extends Error {}

export function isEncryptedContentType(ct: string | undefined): boolean {
  return !!ct && /multipart\/encrypted/i.test(ct) && ct.includes(ENCRYPTED_PROTOCOL);
}

export function sealBody(session: NtlmSession, plaintext: Uint8Array): Uint8Array {
  const { sealed, signature } = session.wrap(plaintext);
  const len = new Uint8Array(4);
  new DataView(len.buffer).setUint32(0, signature.length, true);
  const head = latin1(
    `--${BOUNDARY}\r\n` +
      `\tContent-Type: ${ENCRYPTED_PROTOCOL}\r\n` +
      `\tOriginalContent: type=application/soap+xml;charset=UTF-8;Length=${plaintext.length}\r\n` +
      `--${BOUNDARY}\r\n` +
      `\tContent-Type: application/octet-stream\r\n`,
  );
  return concat(head, len, signature, sealed, latin1(`--${BOUNDARY}--\r\n`));
}

/** Reads the multipart body, verifies the signature, returns the SOAP bytes. */
export function unsealBody(session: NtlmSession, body: Uint8Array): Uint8Array {
  // Headers are ASCII; look at them as latin1 without touching the binary part's meaning.
  const text = fromLatin1(body.subarray(0, Math.min(body.length, 1024)));
  const lm = /OriginalContent:[^\r\n]*Length=(\d+)/i.exec(text);
  if (!lm) throw new FramingError('encrypted body has no OriginalContent Length');
  const length = Number(lm[1]);
  const octet = /Content-Type:\s*application\/octet-stream\r\n/i.exec(text);
  if (!octet) throw new FramingError('encrypted body has no application/octet-stream part');
  let o = octet.index + octet[0].length;
  if (o + 4 > body.length) throw new FramingError('encrypted body is truncated');
  const sigLen = new DataView(body.buffer, body.byteOffset + o, 4).getUint32(0, true);
  o += 4;
  if (sigLen !== 16 || o + sigLen + length > body.length) throw new FramingError('encrypted body is truncated or its lengths disagree');
  const signature = body.subarray(o, o + sigLen);
  const sealed = body.subarray(o + sigLen, o + sigLen + length);
  const tail = fromLatin1(body.subarray(o + sigLen + length, o + sigLen + length + BOUNDARY.length + 4));
  if (!tail.startsWith(`--${BOUNDARY}`)) throw new FramingError('decrypted length does not match OriginalContent Length');
  return session.unwrap(sealed, signature);
}
