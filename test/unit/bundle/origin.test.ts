// What a node is read from (services/bundle/origin.ts): pastes alone, pastes added to a bundle folder
// or zip (they become files of its bundle folder, renamed when a file there has their name), and the
// pasted bytes stay whole for the next read even when a big one is parsed in the worker thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openOrigin, originLocation, type BundleOrigin } from '../../../services/bundle/origin.ts';
import { loadOrigin } from '../../../services/bundle/load.ts';
import { BundleOpenError } from '../../../services/bundle/source.ts';
import { makeZip } from '../../helpers/zip.ts';
import { demoPastes } from '../../helpers/demo-pastes.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const text = async (e: { read(): Promise<Uint8Array> }) => new TextDecoder().decode(await e.read());

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-origin-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('originLocation', () => {
  it('names pastes, a path, and a path with pastes', () => {
    const p = { name: 'a', bytes: enc('x') };
    expect(originLocation({ pastes: [p] })).toBe('pasted text');
    expect(originLocation({ pastes: [p, p] })).toBe('2 pasted texts');
    expect(originLocation({ path: '/b/n1', pastes: [] })).toBe('/b/n1');
    expect(originLocation({ path: '/b/n1', pastes: [p] })).toBe('/b/n1 + a pasted text');
  });
});

describe('openOrigin', () => {
  it('opens pastes alone as single files held in memory', async () => {
    const src = await openOrigin({ pastes: [{ name: 'paste 1.txt', bytes: enc('one') }, { name: 'paste 1.txt', bytes: enc('two') }] });
    expect(src.kind).toBe('file');
    expect(src.entries.map((e) => [e.path, e.size, e.inMemory, e.diskPath])).toEqual([
      ['paste 1.txt', 3, true, undefined],
      ['paste 1 (2).txt', 3, true, undefined],
    ]);
    expect(await text(src.entries[1])).toBe('two');
  });

  it('puts pastes into the bundle folder of a zip, renamed when the name is taken there', async () => {
    const zip = path.join(dir, 'node.zip');
    await writeFile(zip, await makeZip({ 'out/network.txt': '[]', 'out/endpoint.txt': '[]', 'readme.md': 'hi' }));
    const src = await openOrigin({ path: zip, pastes: [{ name: 'endpoint.txt', bytes: enc('{"ID":"x"}') }, { name: 'paste 2.txt', bytes: enc('y') }] });
    try {
      expect(src.kind).toBe('zip');
      expect(src.location).toBe(`${zip} + 2 pasted texts`);
      expect(src.entries.map((e) => e.path)).toEqual(['out/network.txt', 'out/endpoint.txt', 'readme.md', 'out/endpoint (2).txt', 'out/paste 2.txt']);
      expect(await text(src.entries[3])).toBe('{"ID":"x"}');
      expect(await text(src.entries[1])).toBe('[]');
    } finally {
      await src.close();
    }
  });

  it('adds pastes to a single opened file as files beside it', async () => {
    const f = path.join(dir, 'routes.txt');
    await writeFile(f, 'IPv4 Route Table\n');
    const src = await openOrigin({ path: f, pastes: [{ name: 'paste 1.txt', bytes: enc('z') }] });
    expect(src.entries.map((e) => [e.path, !!e.diskPath])).toEqual([['routes.txt', true], ['paste 1.txt', false]]);
  });

  it('refuses an origin with nothing in it', async () => {
    await expect(openOrigin({ pastes: [] })).rejects.toBeInstanceOf(BundleOpenError);
  });
});

describe('loadOrigin', () => {
  it('reads pastes parsed in the worker thread twice alike: the kept bytes are not handed away', async () => {
    const { pastes, a, b } = await demoPastes();
    const origin: BundleOrigin = { pastes: pastes.map((p) => ({ name: p.name, bytes: enc(p.text) })) };
    const sizes = origin.pastes.map((p) => p.bytes.length);
    // Every paste is "big": parsed in the worker, which takes over the bytes it is sent.
    const first = await loadOrigin(origin, { bigFileBytes: 1 });
    expect(origin.pastes.map((p) => p.bytes.length)).toEqual(sizes);
    const again = await loadOrigin(origin, { bigFileBytes: 1 });
    for (const m of [first, again]) {
      expect(m.endpoints!.map((e) => e.id)).toEqual([a.id, b.id]);
      expect(m.joins.unmatched).toEqual([]);
      expect(m.ports!.length).toBe(2);
    }
  });

  it('loads a folder with a paste added as one node', async () => {
    const folder = path.join(dir, 'folder');
    await mkdir(folder, { recursive: true });
    const { pastes } = await demoPastes();
    await writeFile(path.join(folder, 'endpoint.txt'), pastes[0].text);
    const m = await loadOrigin({ path: folder, pastes: [{ name: 'paste 1.txt', bytes: enc(pastes[1].text) }] });
    expect(m.source).toEqual({ location: `${folder} + a pasted text`, kind: 'folder', root: '' });
    expect(m.files.map((f) => [f.name, f.kind, f.used])).toEqual([['endpoint.txt', 'endpoint', true], ['paste 1.txt', 'vfp', true]]);
    expect(m.joins.endpoints.filter((j) => j.portKey)).toHaveLength(1);
  });
});
