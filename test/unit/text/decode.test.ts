import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeText, detectEncoding, detectLineEnding, toSingleByte } from '../../../parsers/text/decode.ts';

const SAMPLE = 'Network Information for Compartment 1 (ACTIVE)\r\n   IPv4 Address. . . : 10.0.0.4(Preferred)\r\n';

function utf16le(s: string, bom = true): Uint8Array {
  const out = new Uint8Array((bom ? 2 : 0) + s.length * 2);
  let o = 0;
  if (bom) {
    out[o++] = 0xff;
    out[o++] = 0xfe;
  }
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[o++] = c & 0xff;
    out[o++] = c >> 8;
  }
  return out;
}
function utf16be(s: string, bom = true): Uint8Array {
  const le = utf16le(s, false);
  const out = new Uint8Array((bom ? 2 : 0) + le.length);
  let o = 0;
  if (bom) {
    out[o++] = 0xfe;
    out[o++] = 0xff;
  }
  for (let i = 0; i < le.length; i += 2) {
    out[o++] = le[i + 1];
    out[o++] = le[i];
  }
  return out;
}
const utf8 = (s: string) => new TextEncoder().encode(s);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

describe('detectEncoding / decodeText', () => {
  it.each([
    ['utf-16le-bom', utf16le(SAMPLE)],
    ['utf-16le', utf16le(SAMPLE, false)],
    ['utf-16be-bom', utf16be(SAMPLE)],
    ['utf-16be', utf16be(SAMPLE, false)],
    ['utf-8-bom', concat(new Uint8Array([0xef, 0xbb, 0xbf]), utf8(SAMPLE))],
    ['ascii', utf8(SAMPLE)],
  ])('reads %s', (enc, bytes) => {
    expect(detectEncoding(bytes)).toBe(enc);
    const d = decodeText(bytes, 'ip.txt');
    expect(d.encoding).toBe(enc);
    expect(d.text).toBe(SAMPLE);
    expect(d.lineEnding).toBe('crlf');
    expect(d.issues).toEqual([]);
  });

  it('reads UTF-8 with non-ASCII text (localized ipconfig) as utf-8', () => {
    const s = 'Ethernet-Adapter vEthernet (nat):\n   Physische Adresse . . . : 00-15-5D-00-00-01\n   Passerelle par défaut. . : 10.0.0.1\n';
    const d = decodeText(utf8(s), 'ip.txt');
    expect(d.encoding).toBe('utf-8');
    expect(d.text).toBe(s);
    expect(d.lineEnding).toBe('lf');
  });

  it('falls back to Windows-1252 for ANSI bytes and says so', () => {
    const bytes = new Uint8Array([...utf8('Passerelle par d'), 0xe9, ...utf8('faut . : 10.0.0.1\r\n')]);
    const d = decodeText(bytes, 'ip.txt');
    expect(d.encoding).toBe('windows-1252');
    expect(d.text).toContain('défaut');
    expect(d.issues.map((i) => i.severity)).toEqual(['info']);
  });

  it('reads a UTF-16LE file with a UTF-8 part appended by >> from another shell', () => {
    const first = 'Get-port-counter for port:  ABC\r\n'.repeat(3);
    const second = 'Direction - OUT\r\n    Total packets : 12\r\n';
    const d = decodeText(concat(utf16le(first), utf8(second)), 'ports.txt');
    expect(d.text).toBe(first + second);
    expect(d.mixed).toBe(true);
    expect(d.issues.some((i) => i.severity === 'warning' && /mixes/.test(i.message))).toBe(true);
  });

  it('reads a UTF-8 file with UTF-16LE appended (NULs dropped, warning)', () => {
    const d = decodeText(concat(utf8('route print output\r\n'.repeat(40)), utf16le('ifIndex DestinationPrefix\r\n', false)), 'routes.txt');
    expect(d.text.endsWith('ifIndex DestinationPrefix\r\n')).toBe(true);
    expect(d.issues.some((i) => /mixes/.test(i.message))).toBe(true);
  });

  it('handles empty input and a lone BOM', () => {
    expect(decodeText(new Uint8Array(), 'x').encoding).toBe('empty');
    expect(decodeText(new Uint8Array([0xff, 0xfe]), 'x').text).toBe('');
  });

  it('names invalid bytes with the line they are on', () => {
    const bytes = concat(utf8('line one é\nline two '), new Uint8Array([0xc3, 0x28]), utf8(' x\n'));
    const d = decodeText(bytes, 'x.txt');
    expect(d.encoding).toBe('windows-1252');
  });

  it('never throws on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        const d = decodeText(bytes, 'junk.bin');
        expect(typeof d.text).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  it('decoding is lossless for any ASCII text in every encoding', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x20-\x7e\r\n\t]{0,300}$/), (s) => {
        for (const bytes of [utf16le(s), utf16be(s), utf8(s)]) expect(decodeText(bytes, 'x').text).toBe(s);
      }),
      { numRuns: 200 },
    );
  });
});

describe('detectLineEnding', () => {
  it.each([
    ['a\r\nb\r\n', 'crlf'],
    ['a\nb\n', 'lf'],
    ['a\rb\r', 'cr'],
    ['a\r\nb\n', 'mixed'],
    ['ab', 'none'],
  ])('%j → %s', (t, e) => expect(detectLineEnding(t)).toBe(e));
});

describe('toSingleByte', () => {
  it('turns UTF-16 into ASCII bytes without building a string', () => {
    const s = 'RULE : LB_DSR_1\r\n';
    expect(new TextDecoder().decode(toSingleByte(utf16le(s), 'utf-16le-bom'))).toBe(s);
    expect(new TextDecoder().decode(toSingleByte(utf16be(s), 'utf-16be-bom'))).toBe(s);
    expect(new TextDecoder().decode(toSingleByte(concat(new Uint8Array([0xef, 0xbb, 0xbf]), utf8(s)), 'utf-8-bom'))).toBe(s);
  });
});
