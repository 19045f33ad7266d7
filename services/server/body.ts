// Reading a JSON request body with a size cap (the client gets a 413, not a reset).
import type http from 'node:http';

export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

export function readBody(req: http.IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    // Keep reading past the limit (discarding) so the client gets the 413 instead of a reset.
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n <= max) chunks.push(c);
    });
    req.on('end', () => (n > max ? reject(new BodyTooLarge('request body too large')) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}
