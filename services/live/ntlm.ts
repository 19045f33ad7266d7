// NTLMv2 (MS-NLMP) for WinRM: the three messages, the initiator (client) and acceptor (server) state
// machines, and session security (sign + seal, ESS + 128-bit + KEY_EXCH). Pure TypeScript: randomness and
// time come in through `NtlmEnv` so the same code runs in Node, a worker, or a test with fixed vectors.
import { concat, equalBytes, hmacMd5, md4, md5, rc4, Rc4 } from './crypto.ts';
import { fromLatin1, fromUtf16le, latin1, utf16le } from './bytes.ts';

export const NTLM_FLAGS = {
  UNICODE: 0x1, OEM: 0x2, REQUEST_TARGET: 0x4, SIGN: 0x10, SEAL: 0x20, NTLM: 0x200, ALWAYS_SIGN: 0x8000,
  TARGET_TYPE_DOMAIN: 0x10000, TARGET_TYPE_SERVER: 0x20000, EXTENDED_SESSIONSECURITY: 0x80000,
  TARGET_INFO: 0x800000, VERSION: 0x2000000, N128: 0x20000000, KEY_EXCH: 0x40000000, N56: 0x80000000,
} as const;
const F = NTLM_FLAGS;

/** What the client asks for: everything WinRM's sealing needs. */
export const CLIENT_FLAGS = (F.UNICODE | F.OEM | F.REQUEST_TARGET | F.SIGN | F.SEAL | F.NTLM | F.ALWAYS_SIGN |
  F.EXTENDED_SESSIONSECURITY | F.VERSION | F.N128 | F.KEY_EXCH | F.N56) >>> 0;
/** Flags the session security needs; an acceptor or initiator refuses a context without them. */
export const REQUIRED_SEAL_FLAGS = (F.SIGN | F.SEAL | F.EXTENDED_SESSIONSECURITY | F.N128 | F.KEY_EXCH) >>> 0;

export const AV = { EOL: 0, NbComputer: 1, NbDomain: 2, DnsComputer: 3, DnsDomain: 4, DnsTree: 5, Flags: 6, Timestamp: 7, SingleHost: 8, TargetName: 9, ChannelBindings: 10 } as const;

export interface AvPair { id: number; value: Uint8Array }

export interface NtlmEnv {
  random(n: number): Uint8Array;
  /** Milliseconds since 1970 (used for the NTLMv2 timestamp when the server sends none, and by the acceptor). */
  now(): number;
}

const SIGNATURE = latin1('NTLMSSP\0');
const VERSION_BYTES = Uint8Array.from([10, 0, 0x61, 0x4a, 0, 0, 0, 0x0f]); // 10.0 build 19041, NTLMSSP_REVISION_W2K3

export class NtlmError extends Error {}

// ---- little-endian field helpers ----
const le16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const le32 = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
function put16(b: Uint8Array, o: number, v: number) { b[o] = v & 0xff; b[o + 1] = (v >> 8) & 0xff; }
function put32(b: Uint8Array, o: number, v: number) { b[o] = v & 0xff; b[o + 1] = (v >>> 8) & 0xff; b[o + 2] = (v >>> 16) & 0xff; b[o + 3] = (v >>> 24) & 0xff; }
export function le32bytes(v: number): Uint8Array { const b = new Uint8Array(4); put32(b, 0, v); return b; }

function readField(b: Uint8Array, o: number): Uint8Array {
  const len = le16(b, o);
  const off = le32(b, o + 4);
  if (len === 0) return new Uint8Array(0);
  if (off + len > b.length) throw new NtlmError('NTLM message field runs past the end of the message');
  return b.slice(off, off + len);
}

/** Lay out a message: fixed header of `headerLen` bytes, then payloads; `fields` are (fieldOffset, bytes). */
function layout(headerLen: number, fields: [number, Uint8Array][], fill: (b: Uint8Array) => void): Uint8Array {
  const total = headerLen + fields.reduce((n, [, v]) => n + v.length, 0);
  const b = new Uint8Array(total);
  b.set(SIGNATURE, 0);
  let off = headerLen;
  for (const [fo, v] of fields) {
    put16(b, fo, v.length); put16(b, fo + 2, v.length); put32(b, fo + 4, v.length ? off : headerLen);
    b.set(v, off);
    off += v.length;
  }
  fill(b);
  return b;
}

function checkSignature(b: Uint8Array, type: number): void {
  if (b.length < 12 || !equalBytes(b.subarray(0, 8), SIGNATURE)) throw new NtlmError('not an NTLMSSP message');
  if (le32(b, 8) !== type) throw new NtlmError(`expected NTLM message type ${type}, got ${le32(b, 8)}`);
}

// ---- AV pairs ----
export function encodeAvPairs(pairs: AvPair[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const p of pairs.filter((x) => x.id !== AV.EOL)) {
    const h = new Uint8Array(4); put16(h, 0, p.id); put16(h, 2, p.value.length);
    parts.push(h, p.value);
  }
  parts.push(new Uint8Array(4));
  return concat(...parts);
}

export function decodeAvPairs(b: Uint8Array): AvPair[] {
  const out: AvPair[] = [];
  let o = 0;
  while (o + 4 <= b.length) {
    const id = le16(b, o), len = le16(b, o + 2);
    if (id === AV.EOL) break;
    if (o + 4 + len > b.length) throw new NtlmError('AV pair runs past the end of TargetInfo');
    out.push({ id, value: b.slice(o + 4, o + 4 + len) });
    o += 4 + len;
  }
  return out;
}

// ---- messages ----
export interface NegotiateMessage { flags: number }
export function encodeNegotiate(flags = CLIENT_FLAGS): Uint8Array {
  return layout(40, [[16, new Uint8Array(0)], [24, new Uint8Array(0)]], (b) => {
    put32(b, 8, 1); put32(b, 12, flags); b.set(VERSION_BYTES, 32);
  });
}
export function decodeNegotiate(b: Uint8Array): NegotiateMessage {
  checkSignature(b, 1);
  if (b.length < 16) throw new NtlmError('NTLM negotiate message too short');
  return { flags: le32(b, 12) };
}

export interface ChallengeMessage { flags: number; serverChallenge: Uint8Array; targetName: string; targetInfo: Uint8Array }
export function encodeChallenge(m: ChallengeMessage): Uint8Array {
  const name = m.flags & F.UNICODE ? utf16le(m.targetName) : latin1(m.targetName);
  return layout(56, [[12, name], [40, m.targetInfo]], (b) => {
    put32(b, 8, 2); put32(b, 20, m.flags); b.set(m.serverChallenge, 24); b.set(VERSION_BYTES, 48);
  });
}
export function decodeChallenge(b: Uint8Array): ChallengeMessage {
  checkSignature(b, 2);
  if (b.length < 48) throw new NtlmError('NTLM challenge message too short');
  const flags = le32(b, 20);
  const nameBytes = readField(b, 12);
  return {
    flags,
    serverChallenge: b.slice(24, 32),
    targetName: flags & F.UNICODE ? fromUtf16le(nameBytes) : fromLatin1(nameBytes),
    targetInfo: flags & F.TARGET_INFO ? readField(b, 40) : new Uint8Array(0),
  };
}

export interface AuthenticateMessage {
  flags: number; lmResponse: Uint8Array; ntResponse: Uint8Array; domain: string; user: string; workstation: string;
  encryptedRandomSessionKey: Uint8Array; mic: Uint8Array | null;
}
export const MIC_OFFSET = 72;
export function encodeAuthenticate(m: AuthenticateMessage): Uint8Array {
  const s = (t: string) => (m.flags & F.UNICODE ? utf16le(t) : latin1(t));
  return layout(88, [[12, m.lmResponse], [20, m.ntResponse], [28, s(m.domain)], [36, s(m.user)], [44, s(m.workstation)], [52, m.encryptedRandomSessionKey]], (b) => {
    put32(b, 8, 3); put32(b, 60, m.flags); b.set(VERSION_BYTES, 64);
    if (m.mic) b.set(m.mic, MIC_OFFSET);
  });
}
export function decodeAuthenticate(b: Uint8Array): AuthenticateMessage {
  checkSignature(b, 3);
  if (b.length < 64) throw new NtlmError('NTLM authenticate message too short');
  const flags = le32(b, 60);
  const s = (x: Uint8Array) => (flags & F.UNICODE ? fromUtf16le(x) : fromLatin1(x));
  // Payload starting at 88 means a VERSION and MIC are present.
  const payloadStart = Math.min(...[12, 20, 28, 36, 44, 52].map((o) => (le16(b, o) ? le32(b, o + 4) : b.length)));
  return {
    flags,
    lmResponse: readField(b, 12), ntResponse: readField(b, 20), domain: s(readField(b, 28)), user: s(readField(b, 36)),
    workstation: s(readField(b, 44)), encryptedRandomSessionKey: readField(b, 52),
    mic: payloadStart >= 88 && b.length >= 88 ? b.slice(MIC_OFFSET, MIC_OFFSET + 16) : null,
  };
}

// ---- NTLMv2 computations (MS-NLMP 3.3.2) ----
export function ntowfv2(password: string, user: string, domain: string): Uint8Array {
  return hmacMd5(md4(utf16le(password)), utf16le(user.toUpperCase() + domain));
}

export function filetime(ms: number): Uint8Array {
  const t = (BigInt(Math.floor(ms)) + 11644473600000n) * 10000n;
  const b = new Uint8Array(8);
  for (let i = 0; i < 8; i++) b[i] = Number((t >> BigInt(8 * i)) & 0xffn);
  return b;
}

export function ntlmv2Temp(time: Uint8Array, clientChallenge: Uint8Array, targetInfo: Uint8Array): Uint8Array {
  return concat(Uint8Array.from([1, 1, 0, 0, 0, 0, 0, 0]), time, clientChallenge, new Uint8Array(4), targetInfo, new Uint8Array(4));
}

export interface V2Response { ntProofStr: Uint8Array; ntResponse: Uint8Array; sessionBaseKey: Uint8Array }
export function computeNtlmv2(ntowf: Uint8Array, serverChallenge: Uint8Array, temp: Uint8Array): V2Response {
  const ntProofStr = hmacMd5(ntowf, serverChallenge, temp);
  return { ntProofStr, ntResponse: concat(ntProofStr, temp), sessionBaseKey: hmacMd5(ntowf, ntProofStr) };
}

/** Splits `DOMAIN\user`; anything else (including `user@domain`) goes as the user name with an empty domain. */
export function splitUser(user: string): { domain: string; user: string } {
  const i = user.indexOf('\\');
  return i >= 0 ? { domain: user.slice(0, i), user: user.slice(i + 1) } : { domain: '', user };
}

// ---- session security (MS-NLMP 3.4, ESS + KEY_EXCH) ----
const MAGIC = {
  c2sSign: latin1('session key to client-to-server signing key magic constant\0'),
  s2cSign: latin1('session key to server-to-client signing key magic constant\0'),
  c2sSeal: latin1('session key to client-to-server sealing key magic constant\0'),
  s2cSeal: latin1('session key to server-to-client sealing key magic constant\0'),
};

export function sessionKeys(esk: Uint8Array) {
  return {
    clientSign: md5(concat(esk, MAGIC.c2sSign)), serverSign: md5(concat(esk, MAGIC.s2cSign)),
    clientSeal: md5(concat(esk, MAGIC.c2sSeal)), serverSeal: md5(concat(esk, MAGIC.s2cSeal)),
  };
}

/** One side of an established NTLM context: seals outgoing messages and unseals incoming ones. */
export class NtlmSession {
  private outSign: Uint8Array; private inSign: Uint8Array;
  private outRc4: Rc4; private inRc4: Rc4;
  private outSeq = 0; private inSeq = 0;
  constructor(exportedSessionKey: Uint8Array, side: 'client' | 'server') {
    const k = sessionKeys(exportedSessionKey);
    const client = side === 'client';
    this.outSign = client ? k.clientSign : k.serverSign;
    this.inSign = client ? k.serverSign : k.clientSign;
    this.outRc4 = new Rc4(client ? k.clientSeal : k.serverSeal);
    this.inRc4 = new Rc4(client ? k.serverSeal : k.clientSeal);
  }
  wrap(message: Uint8Array): { sealed: Uint8Array; signature: Uint8Array } {
    const sealed = this.outRc4.update(message);
    const signature = this.sign(this.outSign, this.outRc4, this.outSeq, message);
    this.outSeq++;
    return { sealed, signature };
  }
  unwrap(sealed: Uint8Array, signature: Uint8Array): Uint8Array {
    const message = this.inRc4.update(sealed);
    const expected = this.sign(this.inSign, this.inRc4, this.inSeq, message);
    if (!equalBytes(expected, signature)) throw new NtlmError('NTLM message signature does not verify (wrong key or sequence)');
    this.inSeq++;
    return message;
  }
  private sign(key: Uint8Array, r: Rc4, seq: number, message: Uint8Array): Uint8Array {
    const seqb = le32bytes(seq);
    const cks = r.update(hmacMd5(key, seqb, message).subarray(0, 8));
    return concat(Uint8Array.from([1, 0, 0, 0]), cks, seqb);
  }
}

// ---- initiator ----
export interface ClientCredentials { user: string; password: string; workstation?: string }

export class NtlmClient {
  private negotiate: Uint8Array | null = null;
  session: NtlmSession | null = null;
  flags = 0;
  constructor(private creds: ClientCredentials, private env: NtlmEnv) {}

  negotiateMessage(): Uint8Array {
    this.negotiate = encodeNegotiate(CLIENT_FLAGS);
    return this.negotiate;
  }

  /** Answers the server's challenge; after this `session` is ready. */
  authenticateMessage(challengeBytes: Uint8Array): Uint8Array {
    if (!this.negotiate) throw new NtlmError('negotiate message not sent');
    const ch = decodeChallenge(challengeBytes);
    if ((ch.flags & REQUIRED_SEAL_FLAGS) !== REQUIRED_SEAL_FLAGS) {
      throw new NtlmError('the server did not agree to NTLM signing and sealing with 128-bit key exchange');
    }
    const flags = ((ch.flags & CLIENT_FLAGS) | F.UNICODE) & ~F.OEM;
    this.flags = flags >>> 0;
    const { domain, user } = splitUser(this.creds.user);
    const pairs = decodeAvPairs(ch.targetInfo);
    const ts = pairs.find((p) => p.id === AV.Timestamp);
    const time = ts ? ts.value : filetime(this.env.now());
    let info = pairs;
    if (ts) {
      info = pairs.filter((p) => p.id !== AV.Flags);
      const prev = pairs.find((p) => p.id === AV.Flags);
      info.push({ id: AV.Flags, value: le32bytes((prev ? le32(prev.value, 0) : 0) | 0x2) });
    }
    const clientChallenge = this.env.random(8);
    const ntowf = ntowfv2(this.creds.password, user, domain);
    const r = computeNtlmv2(ntowf, ch.serverChallenge, ntlmv2Temp(time, clientChallenge, encodeAvPairs(info)));
    const lmResponse = ts ? new Uint8Array(24) : concat(hmacMd5(ntowf, ch.serverChallenge, clientChallenge), clientChallenge);
    const esk = this.env.random(16);
    const msg: AuthenticateMessage = {
      flags: this.flags, lmResponse, ntResponse: r.ntResponse, domain, user, workstation: this.creds.workstation ?? '',
      encryptedRandomSessionKey: rc4(r.sessionBaseKey, esk), mic: ts ? new Uint8Array(16) : null,
    };
    const out = encodeAuthenticate(msg);
    if (ts) out.set(hmacMd5(esk, this.negotiate, challengeBytes, out), MIC_OFFSET);
    this.session = new NtlmSession(esk, 'client');
    return out;
  }
}

// ---- acceptor ----
export interface AcceptorConfig { user: string; password: string; nbDomain?: string; nbComputer?: string; dnsDomain?: string; dnsComputer?: string }
export type AcceptResult = { ok: true; user: string; domain: string; session: NtlmSession } | { ok: false; reason: string };

export class NtlmServer {
  private negotiate: Uint8Array | null = null;
  private challenge: Uint8Array | null = null;
  private serverChallenge: Uint8Array | null = null;
  constructor(private cfg: AcceptorConfig, private env: NtlmEnv) {}

  challengeMessage(negotiateBytes: Uint8Array): Uint8Array {
    const neg = decodeNegotiate(negotiateBytes);
    this.negotiate = negotiateBytes;
    this.serverChallenge = this.env.random(8);
    const supported = F.SIGN | F.SEAL | F.EXTENDED_SESSIONSECURITY | F.N128 | F.KEY_EXCH | F.N56 | F.ALWAYS_SIGN | F.VERSION | F.REQUEST_TARGET;
    const flags = ((neg.flags & supported) | F.UNICODE | F.NTLM | F.TARGET_INFO | F.TARGET_TYPE_DOMAIN) >>> 0;
    const s = (t: string) => utf16le(t);
    const targetInfo = encodeAvPairs([
      { id: AV.NbDomain, value: s(this.cfg.nbDomain ?? 'HNSIGHT') },
      { id: AV.NbComputer, value: s(this.cfg.nbComputer ?? 'WINNODE') },
      { id: AV.DnsDomain, value: s(this.cfg.dnsDomain ?? 'hnsight.test') },
      { id: AV.DnsComputer, value: s(this.cfg.dnsComputer ?? 'winnode.hnsight.test') },
      { id: AV.Timestamp, value: filetime(this.env.now()) },
    ]);
    this.challenge = encodeChallenge({ flags, serverChallenge: this.serverChallenge, targetName: this.cfg.nbDomain ?? 'HNSIGHT', targetInfo });
    return this.challenge;
  }

  accept(authBytes: Uint8Array): AcceptResult {
    if (!this.challenge || !this.serverChallenge || !this.negotiate) return { ok: false, reason: 'no challenge was issued on this connection' };
    let m: AuthenticateMessage;
    try { m = decodeAuthenticate(authBytes); } catch (e) { return { ok: false, reason: (e as Error).message }; }
    const want = splitUser(this.cfg.user);
    if (m.user.toLowerCase() !== want.user.toLowerCase()) return { ok: false, reason: 'unknown user' };
    if (want.domain && m.domain.toLowerCase() !== want.domain.toLowerCase()) return { ok: false, reason: 'unknown user' };
    if (m.ntResponse.length < 48) return { ok: false, reason: 'not an NTLMv2 response' };
    // Sealing is agreed in Negotiate/Challenge; some clients (python ntlm_auth 1.4) drop SIGN from the
    // Authenticate flags, as Windows tolerates. What must be in Authenticate: ESS and the key exchange.
    const negotiated = decodeNegotiate(this.negotiate).flags;
    if ((negotiated & (F.SIGN | F.SEAL)) !== (F.SIGN | F.SEAL) || (m.flags & (F.EXTENDED_SESSIONSECURITY | F.KEY_EXCH)) !== (F.EXTENDED_SESSIONSECURITY | F.KEY_EXCH)) {
      return { ok: false, reason: 'client did not negotiate signing and sealing with key exchange' };
    }
    const ntowf = ntowfv2(this.cfg.password, m.user, m.domain);
    const temp = m.ntResponse.subarray(16);
    const r = computeNtlmv2(ntowf, this.serverChallenge, temp);
    if (!equalBytes(r.ntProofStr, m.ntResponse.subarray(0, 16))) return { ok: false, reason: 'wrong password' };
    if (m.encryptedRandomSessionKey.length !== 16) return { ok: false, reason: 'no exchanged session key' };
    const esk = rc4(r.sessionBaseKey, m.encryptedRandomSessionKey);
    const info = decodeAvPairs(temp.subarray(28));
    const avFlags = info.find((p) => p.id === AV.Flags);
    if (avFlags && le32(avFlags.value, 0) & 0x2) {
      if (!m.mic) return { ok: false, reason: 'MIC announced but missing' };
      const zeroed = authBytes.slice(); zeroed.fill(0, MIC_OFFSET, MIC_OFFSET + 16);
      if (!equalBytes(hmacMd5(esk, this.negotiate, this.challenge, zeroed), m.mic)) return { ok: false, reason: 'MIC does not verify' };
    }
    return { ok: true, user: m.user, domain: m.domain, session: new NtlmSession(esk, 'server') };
  }
}

/** Token in a `WWW-Authenticate: Negotiate <b64>` may be raw NTLMSSP or wrapped in SPNEGO NegTokenResp; get the NTLM bytes. */
export function unwrapSpnego(token: Uint8Array): Uint8Array {
  if (token.length >= 8 && equalBytes(token.subarray(0, 8), SIGNATURE)) return token;
  // Find the NTLMSSP signature inside the DER (responseToken [2] OCTET STRING); enough for NegTokenResp.
  for (let i = 0; i + 8 <= token.length; i++) {
    if (token[i] === 0x4e && equalBytes(token.subarray(i, i + 8), SIGNATURE)) return token.subarray(i);
  }
  throw new NtlmError('the server token holds no NTLM message');
}
