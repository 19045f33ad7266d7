// MD4 (RFC 1320), MD5 (RFC 1321), HMAC-MD5 (RFC 2104) and RC4, in plain TypeScript.
// Node's OpenSSL 3 refuses MD4 and RC4 ("unsupported"), and NTLM needs both; MD5 is here too so the
// NTLM layer stays pure (no Node APIs) and can run in a worker or a browser. Verified against the RFC
// vectors and the MS-NLMP 4.2.4 vectors in test/unit/live/crypto.test.ts.

function padMessage(msg: Uint8Array): Uint32Array {
  const bitLen = msg.length * 8;
  const total = (((msg.length + 8) >> 6) + 1) << 6;
  const buf = new Uint8Array(total);
  buf.set(msg);
  buf[msg.length] = 0x80;
  const dv = new DataView(buf.buffer);
  dv.setUint32(total - 8, bitLen >>> 0, true);
  dv.setUint32(total - 4, Math.floor(msg.length / 0x20000000), true);
  const words = new Uint32Array(total / 4);
  for (let i = 0; i < words.length; i++) words[i] = dv.getUint32(i * 4, true);
  return words;
}

function wordsToBytes(words: number[]): Uint8Array {
  const out = new Uint8Array(words.length * 4);
  const dv = new DataView(out.buffer);
  words.forEach((w, i) => dv.setUint32(i * 4, w >>> 0, true));
  return out;
}

const rotl = (x: number, n: number): number => (x << n) | (x >>> (32 - n));

export function md4(msg: Uint8Array): Uint8Array {
  const x = padMessage(msg);
  let a = 0x67452301, b = 0xefcdab89, c = 0x98badcfe, d = 0x10325476;
  const F = (x1: number, y: number, z: number) => (x1 & y) | (~x1 & z);
  const G = (x1: number, y: number, z: number) => (x1 & y) | (x1 & z) | (y & z);
  const H = (x1: number, y: number, z: number) => x1 ^ y ^ z;
  for (let i = 0; i < x.length; i += 16) {
    const aa = a, bb = b, cc = c, dd = d;
    const r1 = (p: number, q: number, r: number, s: number, k: number, sh: number) => rotl((p + F(q, r, s) + x[i + k]) | 0, sh);
    for (const k of [0, 4, 8, 12]) {
      a = r1(a, b, c, d, k, 3); d = r1(d, a, b, c, k + 1, 7); c = r1(c, d, a, b, k + 2, 11); b = r1(b, c, d, a, k + 3, 19);
    }
    const r2 = (p: number, q: number, r: number, s: number, k: number, sh: number) => rotl((p + G(q, r, s) + x[i + k] + 0x5a827999) | 0, sh);
    for (const k of [0, 1, 2, 3]) {
      a = r2(a, b, c, d, k, 3); d = r2(d, a, b, c, k + 4, 5); c = r2(c, d, a, b, k + 8, 9); b = r2(b, c, d, a, k + 12, 13);
    }
    const r3 = (p: number, q: number, r: number, s: number, k: number, sh: number) => rotl((p + H(q, r, s) + x[i + k] + 0x6ed9eba1) | 0, sh);
    for (const k of [0, 2, 1, 3]) {
      a = r3(a, b, c, d, k, 3); d = r3(d, a, b, c, k + 8, 9); c = r3(c, d, a, b, k + 4, 11); b = r3(b, c, d, a, k + 12, 15);
    }
    a = (a + aa) | 0; b = (b + bb) | 0; c = (c + cc) | 0; d = (d + dd) | 0;
  }
  return wordsToBytes([a, b, c, d]);
}

const MD5_S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const MD5_K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 0x100000000) | 0);

export function md5(msg: Uint8Array): Uint8Array {
  const x = padMessage(msg);
  let a0 = 0x67452301, b0 = 0xefcdab89 | 0, c0 = 0x98badcfe | 0, d0 = 0x10325476;
  for (let i = 0; i < x.length; i += 16) {
    let a = a0, b = b0, c = c0, d = d0;
    for (let j = 0; j < 64; j++) {
      let f: number, g: number;
      if (j < 16) { f = (b & c) | (~b & d); g = j; }
      else if (j < 32) { f = (d & b) | (~d & c); g = (5 * j + 1) & 15; }
      else if (j < 48) { f = b ^ c ^ d; g = (3 * j + 5) & 15; }
      else { f = c ^ (b | ~d); g = (7 * j) & 15; }
      const s = MD5_S[(j >> 4) * 4 + (j & 3)];
      const t = d; d = c; c = b;
      b = (b + rotl((a + f + MD5_K[j] + x[i + g]) | 0, s)) | 0;
      a = t;
    }
    a0 = (a0 + a) | 0; b0 = (b0 + b) | 0; c0 = (c0 + c) | 0; d0 = (d0 + d) | 0;
  }
  return wordsToBytes([a0, b0, c0, d0]);
}

export function hmacMd5(key: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  let k = key.length > 64 ? md5(key) : key;
  const block = new Uint8Array(64);
  block.set(k);
  k = block;
  const ipad = k.map((v) => v ^ 0x36);
  const opad = k.map((v) => v ^ 0x5c);
  return md5(concat(opad, md5(concat(ipad, ...parts))));
}

/** RC4 with a persistent keystream: NTLM sealing keeps one state per direction for the whole session. */
export class Rc4 {
  private s = new Uint8Array(256);
  private i = 0;
  private j = 0;
  constructor(key: Uint8Array) {
    if (key.length === 0) throw new Error('RC4 key must not be empty');
    for (let n = 0; n < 256; n++) this.s[n] = n;
    let j = 0;
    for (let n = 0; n < 256; n++) {
      j = (j + this.s[n] + key[n % key.length]) & 0xff;
      const t = this.s[n]; this.s[n] = this.s[j]; this.s[j] = t;
    }
  }
  update(data: Uint8Array): Uint8Array {
    const out = new Uint8Array(data.length);
    const s = this.s;
    let { i, j } = this;
    for (let n = 0; n < data.length; n++) {
      i = (i + 1) & 0xff;
      j = (j + s[i]) & 0xff;
      const t = s[i]; s[i] = s[j]; s[j] = t;
      out[n] = data[n] ^ s[(s[i] + s[j]) & 0xff];
    }
    this.i = i; this.j = j;
    return out;
  }
}

export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  return new Rc4(key).update(data);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}
