// NTLM messages, the encrypted multipart framing, WS-Man envelopes and responses, CLIXML: build and parse.
import { describe, expect, it } from 'vitest';
import { fromHex, hex, latin1, utf16le, fromLatin1, utf8 } from '../../../services/live/bytes.ts';
import {
  AV, CLIENT_FLAGS, MIC_OFFSET, NTLM_FLAGS as F, NtlmClient, NtlmServer, NtlmSession, decodeAuthenticate, decodeAvPairs, decodeChallenge,
  decodeNegotiate, encodeNegotiate, unwrapSpnego,
} from '../../../services/live/ntlm.ts';
import { sealBody, unsealBody, ENCRYPTED_CONTENT_TYPE, isEncryptedContentType } from '../../../services/live/framing.ts';
import {
  ACTION, FAULT_TIMED_OUT, commandBody, createResponseBody, createShellBody, decodeEncodedCommand, envelope, faultBody, parseFault, parseMessage,
  parseReceive, powershellCommand, receiveResponseBody, responseEnvelope, shellIdFromCreate,
} from '../../../services/live/wsman.ts';
import { decodeClixml } from '../../../services/live/clixml.ts';
import { parseXml, XmlError } from '../../../services/live/xml.ts';

let counter = 0;
const env = { random: (n: number) => Uint8Array.from({ length: n }, () => (counter++ * 37 + 11) & 0xff), now: () => 1_700_000_000_000 };

describe('NTLM messages and the two state machines', () => {
  it('Negotiate carries the sealing flags and a version', () => {
    const b = encodeNegotiate();
    expect(fromLatin1(b.subarray(0, 8))).toBe('NTLMSSP\0');
    const flags = decodeNegotiate(b).flags;
    expect(flags).toBe(CLIENT_FLAGS);
    for (const f of [F.SIGN, F.SEAL, F.EXTENDED_SESSIONSECURITY, F.N128, F.KEY_EXCH, F.VERSION]) expect(flags & f).toBeTruthy();
  });

  it('client and server agree: Challenge has the AV pairs, Authenticate has MsvAvFlags=MIC and a verifying MIC, both sessions interoperate', () => {
    const c = new NtlmClient({ user: 'DOM\\alice', password: 'pw' }, env);
    const s = new NtlmServer({ user: 'alice', password: 'pw' }, env);
    const t2 = s.challengeMessage(c.negotiateMessage());
    const ch = decodeChallenge(t2);
    const ids = decodeAvPairs(ch.targetInfo).map((p) => p.id);
    expect(ids).toEqual([AV.NbDomain, AV.NbComputer, AV.DnsDomain, AV.DnsComputer, AV.Timestamp]);
    expect(ch.flags & F.TARGET_INFO).toBeTruthy();
    const t3 = c.authenticateMessage(t2);
    const auth = decodeAuthenticate(t3);
    expect(auth.user).toBe('alice');
    expect(auth.domain).toBe('DOM');
    expect(auth.lmResponse).toEqual(new Uint8Array(24));
    expect(auth.mic).not.toEqual(new Uint8Array(16));
    const info = decodeAvPairs(auth.ntResponse.subarray(16 + 28));
    expect(info.find((p) => p.id === AV.Flags)!.value).toEqual(Uint8Array.from([2, 0, 0, 0]));
    const r = s.accept(t3);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const w = c.session!.wrap(utf8('<x/>'));
    expect(fromLatin1(r.session.unwrap(w.sealed, w.signature))).toBe('<x/>');
  });

  it('the server refuses a tampered MIC, a wrong password, a wrong user', () => {
    const run = (cp: string, cu: string, tamper = false) => {
      const c = new NtlmClient({ user: cu, password: cp }, env);
      const s = new NtlmServer({ user: 'alice', password: 'pw' }, env);
      const t3 = c.authenticateMessage(s.challengeMessage(c.negotiateMessage()));
      if (tamper) t3[MIC_OFFSET] ^= 1;
      return s.accept(t3);
    };
    expect(run('pw', 'alice')).toMatchObject({ ok: true });
    expect(run('pw', 'alice', true)).toMatchObject({ ok: false, reason: 'MIC does not verify' });
    expect(run('PW', 'alice')).toMatchObject({ ok: false, reason: 'wrong password' });
    expect(run('pw', 'bob')).toMatchObject({ ok: false, reason: 'unknown user' });
  });

  it('the client refuses a server that will not seal', () => {
    const c = new NtlmClient({ user: 'a', password: 'b' }, env);
    const s = new NtlmServer({ user: 'a', password: 'b' }, env);
    const t1 = c.negotiateMessage();
    const t2 = s.challengeMessage(encodeNegotiate(CLIENT_FLAGS & ~F.SEAL));
    void t1;
    expect(() => c.authenticateMessage(t2)).toThrow(/signing and sealing/);
  });

  it('SPNEGO NegTokenResp is unwrapped to the NTLM token', () => {
    const ntlm = encodeNegotiate();
    const wrapped = new Uint8Array([0xa1, 0x81, 0x50, 0x30, 0x4e, 0xa2, 0x4c, 0x04, 0x4a, ...ntlm]);
    expect(hex(unwrapSpnego(wrapped))).toBe(hex(ntlm));
    expect(() => unwrapSpnego(new Uint8Array([1, 2, 3]))).toThrow(/no NTLM/);
  });
});

describe('multipart/encrypted framing (MS-WSMV)', () => {
  const esk = fromHex('55555555555555555555555555555555');
  it('is byte-exact to the pywinrm layout', () => {
    const body = sealBody(new NtlmSession(esk, 'client'), utf16le('Plaintext'));
    const text = fromLatin1(body);
    const head = '--Encrypted Boundary\r\n\tContent-Type: application/HTTP-SPNEGO-session-encrypted\r\n' +
      '\tOriginalContent: type=application/soap+xml;charset=UTF-8;Length=18\r\n--Encrypted Boundary\r\n\tContent-Type: application/octet-stream\r\n';
    expect(text.startsWith(head)).toBe(true);
    const rest = body.subarray(head.length);
    expect(hex(rest.subarray(0, 4))).toBe('10000000');
    expect(hex(rest.subarray(4, 20))).toBe('010000007fb38ec5c55d497600000000');
    expect(hex(rest.subarray(20, 38))).toBe('54e50165bf1936dc996020c1811b0f06fb5f');
    expect(fromLatin1(rest.subarray(38))).toBe('--Encrypted Boundary--\r\n');
    expect(isEncryptedContentType(ENCRYPTED_CONTENT_TYPE)).toBe(true);
  });
  it('round-trips and refuses a body whose length disagrees or was tampered with', () => {
    const c = new NtlmSession(esk, 'client'), s = new NtlmSession(esk, 'server');
    const msg = utf8('<s:Envelope>ü€</s:Envelope>');
    expect(hex(unsealBody(s, sealBody(c, msg)))).toBe(hex(msg));
    const bad = sealBody(c, msg);
    const t = fromLatin1(bad).replace(`Length=${msg.length}`, `Length=${msg.length + 5}`);
    expect(() => unsealBody(s, latin1(t))).toThrow(/truncated|length/);
    const bad2 = sealBody(c, msg); bad2[bad2.length - 30] ^= 0x40;
    expect(() => unsealBody(new NtlmSession(esk, 'server'), bad2)).toThrow();
  });
});

describe('WS-Man envelopes', () => {
  it('builds Create/Command with the header, selectors and options, and parses them back by local name', () => {
    const m = parseMessage(envelope({ to: 'http://n:5985/wsman', action: ACTION.command, messageId: 'uuid:A', shellId: 'S-1', ...commandBody('powershell.exe', ['-a', 'b<c']) }));
    expect(m.action).toBe(ACTION.command);
    expect(m.shellId).toBe('S-1');
    expect(m.options).toEqual({ WINRS_CONSOLEMODE_STDIN: 'TRUE', WINRS_SKIP_CMD_SHELL: 'TRUE' });
    expect(m.body!.children[0].children.map((c) => c.text)).toEqual(['powershell.exe', '-a b<c']);
    const c = parseMessage(envelope({ to: 'x', action: ACTION.create, messageId: 'uuid:B', ...createShellBody() }));
    expect(c.options.WINRS_CODEPAGE).toBe('65001');
  });
  it('reads the ShellId from a Create response, with any prefixes', () => {
    const x = responseEnvelope('r', 'uuid:A', 'uuid:B', createResponseBody('http://n/wsman', 'ABC-1'));
    expect(shellIdFromCreate(parseMessage(x))).toBe('ABC-1');
    expect(parseMessage(x).relatesTo).toBe('uuid:A');
    const other = x.replace(/<(\/?)w:/g, '<$1wsman:').replace('xmlns:w=', 'xmlns:wsman=');
    expect(shellIdFromCreate(parseMessage(other))).toBe('ABC-1');
  });
  it('Receive: chunks per stream, Running then Done with the exit code; a UTF-8 character split across chunks survives', () => {
    const euro = utf8('€'); // 3 bytes
    const r1 = parseReceive(parseMessage(responseEnvelope('r', 'a', 'b', receiveResponseBody('C', [{ stream: 'stdout', data: euro.subarray(0, 1) }], null))));
    expect(r1.done).toBe(false);
    const r2 = parseReceive(parseMessage(responseEnvelope('r', 'a', 'b', receiveResponseBody('C', [{ stream: 'stdout', data: euro.subarray(1) }, { stream: 'stderr', data: utf8('e') }, { stream: 'stdout', data: new Uint8Array(0), end: true }], 7))));
    expect(r2).toMatchObject({ done: true, exitCode: 7 });
    expect(new TextDecoder().decode(new Uint8Array([...r1.stdout[0], ...r2.stdout[0]]))).toBe('€');
    expect(new TextDecoder().decode(r2.stderr[0])).toBe('e');
  });
  it('faults: code, subcode, reason and the WSManFault code', () => {
    const f = parseFault(parseMessage(responseEnvelope('f', 'a', 'b', faultBody(FAULT_TIMED_OUT, 'timed out', 'w:TimedOut'))));
    expect(f).toMatchObject({ code: 's:Receiver', subcode: 'w:TimedOut', reason: 'timed out', wsmanCode: 2150858793 });
  });
  it('PowerShell -EncodedCommand is base64 of UTF-16LE and decodes back', () => {
    const { command, args } = powershellCommand("Write-Output 'ü'");
    expect(command).toBe('powershell.exe');
    expect(args.slice(0, 2)).toEqual(['-NoProfile', '-NonInteractive']);
    expect(args.at(-1)).toBe(Buffer.from("Write-Output 'ü'", 'utf16le').toString('base64'));
    expect(decodeEncodedCommand([command, ...args].join(' '))).toBe("Write-Output 'ü'");
  });
});

describe('CLIXML and the XML reader', () => {
  it('decodes errors, drops progress, keeps warnings labelled', () => {
    const s = '#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04">' +
      '<Obj S="progress" RefId="0"><TN RefId="0"><T>System.Management.Automation.PSCustomObject</T></TN><MS><I64 N="SourceId">1</I64></MS></Obj>' +
      '<S S="Error">Get-HnsNetwork : The term _x0027_Get-HnsNetwork_x0027_ is not recognized_x000D__x000A_</S>' +
      '<S S="Error">At line:1 char:1 &amp; more_x000D__x000A_</S><S S="warning">careful_x000D__x000A_</S></Objs>';
    expect(decodeClixml(s)).toBe("Get-HnsNetwork : The term 'Get-HnsNetwork' is not recognized\r\nAt line:1 char:1 & more\r\nWARNING: careful\r\n");
    expect(decodeClixml('plain error\n')).toBe('plain error\n');
  });
  it('refuses DOCTYPEs and malformed documents', () => {
    expect(() => parseXml('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>')).toThrow(XmlError);
    expect(() => parseXml('<a><b></a>')).toThrow(XmlError);
    expect(parseXml('<a x="1&amp;2"><![CDATA[<raw>]]>&#x41;</a>')).toMatchObject({ name: 'a', attrs: { x: '1&2' }, text: '<raw>A' });
  });
});
