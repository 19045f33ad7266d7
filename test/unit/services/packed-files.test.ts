// What the workers take over as packed records (services/backend/packed-files.ts) must be plain data:
// a class instance would arrive without its prototype, a getter as the value it had. Every content type
// on PACKED_CONTENT is walked, on every file of the demo, the foreign and CNI fixtures, the corpus of real
// outputs (../shared/corpus, each with its .src) and a generated node of every platform, and comes back
// from its packed bytes equal, prototypes included. What is not plain data is not packed (the worker
// parses it again).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { isPacked, PACKED_CONTENT, packParsedFile, unpackParsedFile } from '../../../services/backend/packed-files.ts';
import { buildNode, DEFAULT_SPEC, PLATFORMS, writeBundle } from '../../../tools/gen/index.ts';
import type { ParsedFile } from '../../../parsers/bundle/parsed-file.ts';

/** Where `v` holds something that is not plain data (a class instance, an accessor, a function), or undefined. */
function notPlain(v: unknown, at: string, seen = new Set<object>()): string | undefined {
  if (typeof v === 'function') return `${at}: a function`;
  if (v === null || typeof v !== 'object') return undefined;
  if (seen.has(v)) return undefined;
  seen.add(v);
  const proto: unknown = Object.getPrototypeOf(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const bad = notPlain(v[i], `${at}[${i}]`, seen);
      if (bad) return bad;
    }
    return undefined;
  }
  if (proto !== Object.prototype && proto !== null) return `${at}: an instance of ${(proto as { constructor?: { name?: string } }).constructor?.name ?? 'a class'}`;
  for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(v))) {
    if (d.get || d.set) return `${at}.${k}: an accessor`;
    const bad = notPlain(d.value, `${at}.${k}`, seen);
    if (bad) return bad;
  }
  return undefined;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => !f.endsWith('.src') && statSync(path.join(dir, f)).isFile());
}

const parsed: ParsedFile[] = [];
let gen: string;

beforeAll(async () => {
  gen = await mkdtemp(path.join(tmpdir(), 'hnsight-packed-'));
  const dirs = [path.resolve('assets/demo/l2bridge-node'), path.resolve('test/fixtures/foreign'), path.resolve('test/fixtures/foreign-faults'), path.resolve('test/fixtures/cni'), path.resolve('../shared/corpus')];
  for (const platform of PLATFORMS) dirs.push((await writeBundle(buildNode({ ...DEFAULT_SPEC, platform, seed: 4 }), path.join(gen, platform))).path);
  for (const d of dirs) for (const f of filesUnder(d)) parsed.push(parseBundleFile(f, readFileSync(path.join(d, f))));
}, 120_000);

afterAll(() => rm(gen, { recursive: true, force: true }));

describe('packed records', () => {
  it('every content type that is packed is plain data, and comes back equal', () => {
    const seen = new Set<string>();
    for (const p of parsed) {
      if (!PACKED_CONTENT.has(p.content.type)) continue;
      seen.add(p.content.type);
      expect(notPlain(p, p.name)).toBeUndefined();
      const packed = packParsedFile(p);
      expect(packed && isPacked(packed)).toBe(true);
      expect(packed!.packed.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(unpackParsedFile(packed!)).toStrictEqual(p);
    }
    // The walk covered the content types these inputs have (every one on the list but none unseen silently).
    expect([...PACKED_CONTENT].filter((t) => !seen.has(t) && t !== 'none')).toEqual([]);
  });

  it("keeps a prototype-less object prototype-less: a file's `constructor` or `__proto__` field stays data", () => {
    const ip = parsed.find((x) => x.content.type === 'ip' && x.content.value.netIpAddresses.length > 0)!;
    expect(ip).toBeDefined();
    const c = structuredClone(ip.content) as Extract<ParsedFile['content'], { type: 'ip' }>;
    const extra = Object.create(null) as Record<string, string>;
    extra['constructor'] = 'from the file';
    extra['__proto__'] = 'from the file too';
    c.value.netIpAddresses[0]!.extra = extra;
    const back = unpackParsedFile(packParsedFile({ ...ip, content: c })!);
    if (back.content.type !== 'ip') throw new Error('not an ip record');
    const got = back.content.value.netIpAddresses[0]!.extra;
    expect(Object.getPrototypeOf(got)).toBeNull();
    expect(Object.keys(got).sort()).toEqual(['__proto__', 'constructor']);
    expect(got['constructor']).toBe('from the file');
    expect(got['toString']).toBeUndefined();
  });

  it('a VFP dump is not packed: its byte source is a class and its index has methods', () => {
    const dumps = parsed.filter((p) => p.content.type === 'vfp');
    expect(dumps.length).toBeGreaterThan(0);
    for (const p of dumps) {
      expect(notPlain(p, p.name)).toBeDefined();
      expect(packParsedFile(p)).toBeUndefined();
    }
  });

  it('a record with a function in it is not packed (the worker parses the file again)', () => {
    const p = parsed.find((x) => x.content.type === 'hns')!;
    expect(packParsedFile(p)).toBeDefined();
    expect(packParsedFile({ ...p, content: { type: 'hns', value: { ...(p.content as { value: object }).value, describe: () => 'code' } } } as unknown as ParsedFile)).toBeUndefined();
  });
});
