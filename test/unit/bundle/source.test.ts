import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BundleOpenError, checkZipEntryName, openBundle } from '../../../services/bundle/source.ts';
import { makeZip, patchName } from '../../helpers/zip.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-src-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openBundle', () => {
  it('lists a folder recursively with /-separated relative paths', async () => {
    const b = path.join(dir, 'folder');
    await mkdir(path.join(b, 'adapters'), { recursive: true });
    await writeFile(path.join(b, 'network.txt'), 'x');
    await writeFile(path.join(b, 'adapters', 'Ethernet_int.txt'), 'yy');
    const src = await openBundle(b);
    expect(src.kind).toBe('folder');
    expect(src.entries.map((e) => [e.path, e.size])).toEqual([
      ['adapters/Ethernet_int.txt', 2],
      ['network.txt', 1],
    ]);
    expect(new TextDecoder().decode(await src.entries[1].read())).toBe('x');
  });

  it('reads zip entries at the root and under a top folder', async () => {
    const z = path.join(dir, 'b.zip');
    await writeFile(z, await makeZip({ 'node1/network.txt': 'net', 'node1/ip.txt': 'ip' }));
    const src = await openBundle(z);
    expect(src.kind).toBe('zip');
    expect(src.entries.map((e) => e.path).sort()).toEqual(['node1/ip.txt', 'node1/network.txt']);
    const ip = src.entries.find((e) => e.path.endsWith('ip.txt'))!;
    expect(new TextDecoder().decode(await ip.read())).toBe('ip');
    await src.close();
  });

  it('refuses a zip-slip entry and names it', async () => {
    const z = path.join(dir, 'slip.zip');
    await writeFile(z, patchName(await makeZip({ 'xx/evil.txt': 'boom', 'ip.txt': 'ip' }), 'xx/evil.txt', '../evil.txt'));
    await expect(openBundle(z)).rejects.toThrow(/"\.\.\/evil\.txt".*zip-slip/);
    await expect(openBundle(z)).rejects.toBeInstanceOf(BundleOpenError);
  });

  it('refuses entries larger than the limit before reading them', async () => {
    const z = path.join(dir, 'big.zip');
    await writeFile(z, await makeZip({ 'vfpOutput.txt': 'RULE : x\n'.repeat(1000) }));
    await expect(openBundle(z, { maxEntryBytes: 100, maxTotalBytes: 1e9, maxEntries: 10, maxRatio: 10 })).rejects.toThrow(/would expand to 9000 bytes/);
  });

  it('says clearly when the path does not exist or is not a zip', async () => {
    await expect(openBundle(path.join(dir, 'nope'))).rejects.toThrow(/no such file or folder/);
    const fake = path.join(dir, 'fake.zip');
    await writeFile(fake, Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(50)]));
    await expect(openBundle(fake)).rejects.toThrow(/not a readable zip/);
  });

  it('opens a single file as a one-file bundle', async () => {
    const f = path.join(dir, 'saved-rules.txt');
    await writeFile(f, 'RULE : a\n');
    const src = await openBundle(f);
    expect(src.kind).toBe('file');
    expect(src.entries.map((e) => e.path)).toEqual(['saved-rules.txt']);
  });
});

describe('checkZipEntryName', () => {
  it.each([
    ['../x', /\.\./],
    ['a/../../x', /\.\./],
    ['/etc/passwd', /absolute/],
    ['C:/Windows/x', /absolute/],
    ['..\\x', /\.\./],
  ])('%s is refused', (n, re) => expect(checkZipEntryName(n)).toMatch(re));
  it.each(['network.txt', 'a/b/c.txt', 'x..y.txt'])('%s is fine', (n) => expect(checkZipEntryName(n)).toBeUndefined());
});
