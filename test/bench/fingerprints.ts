// What every input the project has loads to, as hashes: a change that must not change any output (a
// faster parser, a faster loader) is checked by running this before and after and comparing the JSON.
//   node --import tsx test/bench/fingerprints.ts OUT.json [--gen DIR] [--big DIR]
// Inputs: every folder and file under test/fixtures (a folder loaded as a bundle, a file alone), the
// demos, generated nodes of every platform and fault (written once into --gen, default
// .cache/fingerprint-gen, so both runs read the same bytes), every ../shared/corpus file, and the big
// node when --big is given. Each gets the node's fingerprint (test/unit/services/model-fingerprint.ts:
// everything JSON can say of the node, its files' issues and its VFP index by content); each file also
// gets the hash of what parseBundleFile makes of it alone.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadBundle } from '../../services/bundle/load.ts';
import { parseBundleFile } from '../../parsers/bundle/parse-file.ts';
import { modelFingerprint } from '../unit/services/model-fingerprint.ts';
import { buildNode, DEFAULT_SPEC, FAULTS, PLATFORMS, writeBundle } from '../../tools/gen/index.ts';

const args = process.argv.slice(2);
const out = args[0];
if (!out) throw new Error('usage: fingerprints.ts OUT.json [--gen DIR] [--big DIR]');
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i > 0 ? args[i + 1] : undefined;
};
const genDir = path.resolve(opt('--gen') ?? '.cache/fingerprint-gen');
const big = opt('--big');

const result: Record<string, string> = {};
const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 24);

async function node(key: string, at: string | string[]): Promise<void> {
  try {
    result[`node ${key}`] = modelFingerprint(await loadBundle(at));
  } catch (e) {
    result[`node ${key}`] = `threw: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function file(key: string, p: string): void {
  try {
    const parsed = parseBundleFile(path.basename(p), new Uint8Array(readFileSync(p)));
    result[`file ${key}`] = hash(JSON.stringify(parsed, (_k, v: unknown) => (ArrayBuffer.isView(v) ? hash(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')) : v instanceof Map ? [...v] : v instanceof Set ? [...v] : v)));
  } catch (e) {
    result[`file ${key}`] = `threw: ${e instanceof Error ? e.message : String(e)}`;
  }
}

async function walk(dir: string, rel: string): Promise<void> {
  await node(rel, dir);
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    const r = `${rel}/${name}`;
    if (statSync(p).isDirectory()) await walk(p, r);
    else {
      file(r, p);
      await node(r, name.endsWith('.zip') ? p : [p]);
    }
  }
}

async function generated(): Promise<string[]> {
  const specs: [string, Parameters<typeof buildNode>[0], Parameters<typeof writeBundle>[2]][] = [];
  for (const platform of PLATFORMS) for (const seed of [3, 11]) specs.push([`${platform}-${seed}`, { ...DEFAULT_SPEC, platform, seed }, {}]);
  for (const fault of FAULTS) specs.push([`fault-${fault}`, { ...DEFAULT_SPEC, seed: 5, faults: [fault] }, {}]);
  specs.push(['l2bridge-v1-utf8-crlf', { ...DEFAULT_SPEC, schema: 1, seed: 9, pods: 30, services: 60 }, { encoding: 'utf8', eol: 'crlf' }]);
  specs.push(['azure-cni-zip', { ...DEFAULT_SPEC, platform: 'azure-cni', seed: 4 }, { zip: 'flat' }]);
  specs.push(['l2bridge-300-services', { ...DEFAULT_SPEC, seed: 8, pods: 40, services: 300 }, {}]);
  specs.push(['list-rule-ws2019', { ...DEFAULT_SPEC, seed: 6, vfpGeneration: 'list-rule', windowsBuild: '10.0.17763.5830' }, {}]);
  const dirs: string[] = [];
  for (const [name, spec, w] of specs) {
    const dir = path.join(genDir, name);
    if (!existsSync(dir)) await writeBundle(buildNode(spec), dir, w);
    dirs.push(dir);
  }
  return dirs;
}

await walk(path.resolve('test/fixtures'), 'fixtures');
for (const d of readdirSync('assets/demo').sort()) await node(`demo/${d}`, path.resolve('assets/demo', d));
for (const dir of await generated()) await walk(dir, `gen/${path.basename(dir)}`);
const corpus = path.resolve('../shared/corpus');
for (const name of readdirSync(corpus).sort()) {
  if (name.endsWith('.src') || name === 'README.md') continue;
  file(`corpus/${name}`, path.join(corpus, name));
  await node(`corpus/${name}`, [path.join(corpus, name)]);
}
if (big) {
  await node('big', path.resolve(big));
  for (const name of readdirSync(big).sort()) if (name !== 'vfpOutput.txt' && statSync(path.join(big, name)).isFile()) file(`big/${name}`, path.join(big, name));
}
writeFileSync(out, JSON.stringify(result, null, 1));
process.stdout.write(`${Object.keys(result).length} fingerprints, ${Object.values(result).filter((v) => v.startsWith('threw')).length} threw\n`);
