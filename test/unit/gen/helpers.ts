// Shared helpers for the generator tests: write a bundle to a temp dir and read its files back.

import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { buildNode, writeBundle, type NodeSpec, type WriteOptions, type GeneratedNode } from '../../../tools/gen/index.ts';

export const SMALL: NodeSpec = { seed: 7, hostName: 'akswin000007', network: 'l2bridge', schema: 2, pods: 5, services: 12, remoteNodes: 3, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340' };

const temps: string[] = [];

export async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'hnsight-gen-'));
  temps.push(d);
  return d;
}

export async function cleanupTemps(): Promise<void> {
  while (temps.length) await rm(temps.pop()!, { recursive: true, force: true });
}

export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  await walk(dir);
  return out.sort();
}

/** Decode by BOM: FF FE = UTF-16LE, EF BB BF = UTF-8 with BOM, else UTF-8. */
export function decode(buf: Buffer): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString('utf16le');
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return buf.subarray(3).toString('utf8');
  return buf.toString('utf8');
}

export interface Written {
  node: GeneratedNode;
  dir: string;
  files: string[];
  raw: (name: string) => Promise<Buffer>;
  /** Decoded text with CRLF normalised to LF. */
  text: (name: string) => Promise<string>;
}

export async function generate(spec: NodeSpec, opts: WriteOptions = {}): Promise<Written> {
  const node = buildNode(spec);
  const dir = await tempDir();
  await writeBundle(node, dir, opts);
  const files = await listFiles(dir);
  const raw = (name: string) => readFile(join(dir, name));
  return { node, dir, files, raw, text: async (name) => decode(await raw(name)).replace(/\r\n/g, '\n') };
}

/** The ConvertTo-Json part of a "table then JSON" file: from the first column-0 '[' or '{' line. */
export function jsonPart(text: string): unknown[] {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l === '[' || l === '{');
  if (i < 0) return [];
  const v = JSON.parse(lines.slice(i).join('\n'));
  return Array.isArray(v) ? v : [v];
}
