import { afterAll, describe, expect, it } from 'vitest';
import { SMALL, cleanupTemps, generate } from './helpers.ts';

afterAll(cleanupTemps);

const PS_FILES = ['network.txt', 'endpoint.txt', 'namespaces.txt', 'policy.txt', 'hnsdiag.txt', 'ip.txt', 'routes.txt', 'ports.txt', 'mtu.txt', 'winver.txt'];

function lineEnds(s: string) {
  const crlf = (s.match(/\r\n/g) ?? []).length;
  const lf = (s.match(/\n/g) ?? []).length;
  return { crlf, bareLf: lf - crlf };
}

describe('encodings and line ends', () => {
  it('default: PowerShell files are UTF-16LE with BOM and CRLF; vfpOutput.txt and adapters are ASCII without BOM', async () => {
    const w = await generate(SMALL);
    for (const f of PS_FILES) {
      const b = await w.raw(f);
      expect([b[0], b[1]], f).toEqual([0xff, 0xfe]);
      expect(b.length % 2, f).toBe(0);
      const s = b.subarray(2).toString('utf16le');
      expect(s).not.toContain('\uFFFD');
      const e = lineEnds(s);
      expect(e.bareLf, f).toBe(0);
      expect(e.crlf, f).toBeGreaterThan(0);
    }
    for (const f of ['vfpOutput.txt', ...w.files.filter((x) => x.startsWith('adapters/'))]) {
      const b = await w.raw(f);
      expect(b[0], f).not.toBe(0xff);
      expect(b[0], f).not.toBe(0xef);
      expect(b.every((x) => x < 0x80), f).toBe(true);
      expect(lineEnds(b.toString('latin1')).bareLf, f).toBe(0);
    }
    expect(w.files.filter((f) => f.startsWith('adapters/')).length).toBeGreaterThan(0);
    expect((await w.text('ip.txt')).startsWith('\nWindows IP Configuration\n')).toBe(true);
  });

  it('utf8-bom + lf', async () => {
    const w = await generate(SMALL, { encoding: 'utf8-bom', eol: 'lf' });
    for (const f of PS_FILES) {
      const b = await w.raw(f);
      expect([b[0], b[1], b[2]], f).toEqual([0xef, 0xbb, 0xbf]);
      expect(b.includes('\r')).toBe(false);
    }
    const v = await w.raw('vfpOutput.txt');
    expect(v[0]).not.toBe(0xef);
    expect(v.includes('\r')).toBe(false);
  });

  it('utf8 without BOM + crlf decodes to the same text as UTF-16', async () => {
    const u16 = await generate(SMALL);
    const u8 = await generate(SMALL, { encoding: 'utf8', eol: 'crlf' });
    for (const f of PS_FILES) {
      const b = await u8.raw(f);
      expect(b[0], f).not.toBe(0xef);
      expect(b.toString('utf8')).toBe((await u16.raw(f)).subarray(2).toString('utf16le'));
    }
    expect((await u8.raw('vfpOutput.txt')).equals(await u16.raw('vfpOutput.txt'))).toBe(true);
  });
});
