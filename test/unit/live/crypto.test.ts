import { describe, expect, it } from 'vitest';
import { createHash, createHmac } from 'node:crypto';
import { hmacMd5, md4, md5, rc4, Rc4 } from '../../../services/live/crypto.ts';
import { fromHex, hex, latin1, utf16le, fromBase64, toBase64 } from '../../../services/live/bytes.ts';
import {
  AV, computeNtlmv2, encodeAvPairs, ntlmv2Temp, ntowfv2, NtlmSession, sessionKeys,
} from '../../../services/live/ntlm.ts';

describe('MD4 (RFC 1320 appendix A.5)', () => {
  const vectors: [string, string][] = [
    ['', '31d6cfe0d16ae931b73c59d7e0c089c0'],
    ['a', 'bde52cb31de33e46245e05fbdbd6fb24'],
    ['abc', 'a448017aaf21d8525fc10ae87aa6729d'],
    ['message digest', 'd9130a8164549fe818874806e1c7014b'],
    ['abcdefghijklmnopqrstuvwxyz', 'd79e1c308aa5bbcdeea8ed63df412da9'],
    ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', '043f8582f241db351ce627e153e7f0e4'],
    ['1234567890'.repeat(8), 'e33b4ddc9c38f2199c3e7b164fcc0536'],
  ];
  for (const [m, h] of vectors) it(JSON.stringify(m.slice(0, 20)), () => expect(hex(md4(latin1(m)))).toBe(h));
  it('NTOWFv1("Password") per MS-NLMP 4.2.2.1.2', () => expect(hex(md4(utf16le('Password')))).toBe('a4f49c406510bdcab6824ee7c30fd852'));
});

describe('MD5 and HMAC-MD5 agree with node:crypto', () => {
  it('RFC 1321 vectors', () => {
    expect(hex(md5(latin1('')))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(hex(md5(latin1('abc')))).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(hex(md5(latin1('1234567890'.repeat(8))))).toBe('57edf4a22be3c955ac49da2e2107b67a');
  });
  it('random inputs of every length 0..200', () => {
    for (let n = 0; n < 200; n++) {
      const m = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      const k = Uint8Array.from({ length: (n % 90) + 1 }, (_, i) => (i * 7 + 3) & 0xff);
      expect(hex(md5(m))).toBe(createHash('md5').update(m).digest('hex'));
      expect(hex(hmacMd5(k, m))).toBe(createHmac('md5', k).update(m).digest('hex'));
    }
  });
  it('RFC 2104 HMAC-MD5 test case 2', () => expect(hex(hmacMd5(latin1('Jefe'), latin1('what do ya want for nothing?')))).toBe('750c783e6ab0b503eaa86e310a5db738'));
});

describe('RC4', () => {
  it('the classic "Key"/"Plaintext" vector', () => expect(hex(rc4(latin1('Key'), latin1('Plaintext')))).toBe('bbf316e8d940af0ad3'));
  it('RFC 6229 40-bit key keystream, offset 0 and 16', () => {
    const ks = rc4(fromHex('0102030405'), new Uint8Array(32));
    expect(hex(ks)).toBe('b2396305f03dc027ccc3524a0a1118a8' + '6982944f18fc82d589c403a47a0d0919');
  });
  it('keeps its state across updates', () => {
    const r = new Rc4(latin1('Key'));
    expect(hex(r.update(latin1('Plain'))) + hex(r.update(latin1('text')))).toBe('bbf316e8d940af0ad3');
  });
});

describe('base64', () => {
  it('round-trips and matches Buffer', () => {
    for (let n = 0; n < 40; n++) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 97 + 5) & 0xff);
      expect(toBase64(b)).toBe(Buffer.from(b).toString('base64'));
      expect(hex(fromBase64(toBase64(b)))).toBe(hex(b));
    }
  });
});

describe('MS-NLMP 4.2.4 NTLMv2 vectors', () => {
  const serverChallenge = fromHex('0123456789abcdef');
  const clientChallenge = fromHex('aaaaaaaaaaaaaaaa');
  const time = new Uint8Array(8);
  const targetInfo = encodeAvPairs([{ id: AV.NbDomain, value: utf16le('Domain') }, { id: AV.NbComputer, value: utf16le('Server') }]);
  const ntowf = ntowfv2('Password', 'User', 'Domain');
  const r = computeNtlmv2(ntowf, serverChallenge, ntlmv2Temp(time, clientChallenge, targetInfo));
  const esk = fromHex('55555555555555555555555555555555');

  it('NTOWFv2', () => expect(hex(ntowf)).toBe('0c868a403bfd7a93a3001ef22ef02e3f'));
  it('NTProofStr', () => expect(hex(r.ntProofStr)).toBe('68cd0ab851e51c96aabc927bebef6a1c'));
  it('SessionBaseKey', () => expect(hex(r.sessionBaseKey)).toBe('8de40ccadbc14a82f15cb0ad0de95ca3'));
  it('EncryptedRandomSessionKey', () => expect(hex(rc4(r.sessionBaseKey, esk))).toBe('c5dad2544fc9799094ce1ce90bc9d03e'));
  it('client sign and seal keys', () => {
    const k = sessionKeys(esk);
    expect(hex(k.clientSeal)).toBe('59f600973cc4960a25480a7c196e4c58');
    expect(hex(k.clientSign)).toBe('4788dc861b4782f35d43fd98fe1a2d39');
  });
  it('client wrap of "Plaintext"', () => {
    const w = new NtlmSession(esk, 'client').wrap(utf16le('Plaintext'));
    expect(hex(w.sealed)).toBe('54e50165bf1936dc996020c1811b0f06fb5f');
    expect(hex(w.signature)).toBe('010000007fb38ec5c55d497600000000');
  });
  it('server wrap of "Plaintext"', () => {
    const w = new NtlmSession(esk, 'server').wrap(utf16le('Plaintext'));
    expect(hex(w.sealed)).toBe('160871b730ba74e946c453d7465b54278dd0');
    expect(hex(w.signature)).toBe('01000000b298b847ce7c580700000000');
  });
  it('each side unwraps what the other wrapped, in sequence; a tampered message is refused', () => {
    const c = new NtlmSession(esk, 'client');
    const s = new NtlmSession(esk, 'server');
    for (const text of ['one', 'two', 'three']) {
      const w = c.wrap(latin1(text));
      expect(new TextDecoder().decode(s.unwrap(w.sealed, w.signature))).toBe(text);
      const back = s.wrap(latin1(text.toUpperCase()));
      expect(new TextDecoder().decode(c.unwrap(back.sealed, back.signature))).toBe(text.toUpperCase());
    }
    const w = c.wrap(latin1('four'));
    w.sealed[0] ^= 1;
    expect(() => s.unwrap(w.sealed, w.signature)).toThrow(/signature/);
  });
});
