import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BundleOpenError, checkZipEntryName, openBundle, OverBudget } from '../../../services/bundle/source.ts';
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

  it('lists an entry over the per-file budget but refuses to inflate it, naming its size and the budget', async () => {
    const z = path.join(dir, 'big.zip');
    await writeFile(z, await makeZip({ 'vfpOutput.txt': 'RULE : x\n'.repeat(1000), 'ip.txt': 'ip' }));
    const src = await openBundle(z, { maxEntryBytes: 100, maxTotalBytes: 1e9, maxEntries: 10 });
    const vfp = src.entries.find((e) => e.path === 'vfpOutput.txt')!;
    expect(vfp.size).toBe(9000);
    const err = await vfp.read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OverBudget);
    expect((err as Error).message).toMatch(/not read: it is 8\.8 KiB, more than the 100 bytes hnsight reads from one file/);
    // The head alone is inflated, and nothing past it.
    expect(new TextDecoder().decode(await vfp.readHead(9))).toBe('RULE : x\n');
    expect(new TextDecoder().decode(await src.entries.find((e) => e.path === 'ip.txt')!.read())).toBe('ip');
    await src.close();
  });

  it('refuses a listing with more entries than the budget allows', async () => {
    const z = path.join(dir, 'many.zip');
    await writeFile(z, await makeZip(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}.txt`, 'x']))));
    await expect(openBundle(z, { maxEntryBytes: 100, maxTotalBytes: 1e9, maxEntries: 10 })).rejects.toThrow(/more than 10 entries/);
  });

  it('reads the two ends of a zip entry without holding it whole, and refuses one over budget', async () => {
    const z = path.join(dir, 'edges.zip');
    const body = Buffer.alloc(300_000);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7) % 251;
    await writeFile(z, await makeZip({ 'a.txt': body, 'small.txt': 'abc' }));
    const src = await openBundle(z, { maxEntryBytes: 1e6, maxTotalBytes: 1e9, maxEntries: 10 });
    const [head, tail] = await src.entries.find((e) => e.path === 'a.txt')!.readEdges(1000);
    expect(Buffer.from(head).equals(body.subarray(0, 1000))).toBe(true);
    expect(Buffer.from(tail).equals(body.subarray(body.length - 1000))).toBe(true);
    expect(await src.entries.find((e) => e.path === 'small.txt')!.readEdges(1000)).toEqual([new Uint8Array(Buffer.from('abc'))]);
    // At most 2n bytes: the whole entry, in one piece.
    const mid = await src.entries.find((e) => e.path === 'a.txt')!.readEdges(200_000);
    expect(mid).toHaveLength(1);
    expect(Buffer.from(mid[0]).equals(body)).toBe(true);
    await expect(src.entries.find((e) => e.path === 'a.txt')!.readEdges(1000, 1000)).rejects.toBeInstanceOf(OverBudget);
    await src.close();
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

  it('opens a single file over the per-file budget as a bundle whose one file is not read', async () => {
    const f = path.join(dir, 'vfpOutput.txt');
    await writeFile(f, 'RULE : a\n'.repeat(100));
    const src = await openBundle(f, { maxEntryBytes: 100, maxTotalBytes: 1e9, maxEntries: 10 });
    expect(src.entries.map((e) => [e.path, e.size])).toEqual([['vfpOutput.txt', 900]]);
    await expect(src.entries[0].read()).rejects.toThrow(/not read: it is 900 bytes, more than the 100 bytes/);
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
