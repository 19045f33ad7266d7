// Did a change to the walk engine or to reach change what `hnsight reach --json` prints?
// Writes, for every input below, the documents the CLI prints (cli/commands/reach.ts, stdout captured):
// the matrix (`reach B --json`, every default source against the default destinations, findings
// included) and the classes of every source (`reach B --from IP --json`, each IPv4 and IPv6 source), one
// file each, so two trees can be compared byte for byte: run it in the tree before the change and in the
// tree after, then compare the two folders (the pattern of inspect-compare.ts).
//
//   node --import tsx test/bench/reach-compare.ts write OUT_DIR [--big BUNDLE]... [--big-only] [--gen-cache DIR] [--corpus DIR] [--max-sources N]
//   node --import tsx test/bench/reach-compare.ts compare BEFORE_DIR AFTER_DIR
//
// The inputs: every folder under test/fixtures (a file or folder that is not a bundle gives its refusal,
// kept as text), the demos (assets/demo), every ../shared/corpus output, every generated platform's small
// node with and without every fault (tools/gen-bundle.ts, generated once into --gen-cache, default
// /tmp/hnsight-reach-compare-gen), and each --big bundle: there only the first source's classes (the
// matrix of the 250-pod node is minutes of CPU a tree). `walks` (how many walks the partition took, not an
// outcome) is kept: a memo that replays a walk still counts it.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generated } from './generated-inputs.ts';
import { loadBundle } from '../../services/bundle/load.ts';
import { runReach } from '../../cli/commands/reach.ts';
import { defaultSources } from '../../analysis/reach/index.ts';
import { sources6 } from '../../analysis/reach/v6/sources6.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Files under test/fixtures and the corpus that are not inputs (scripts, notes, expected outputs). */
const NOT_INPUT = /(\.md|\.py|\.mjs|\.cnf|\.src|\.expected\.json|\.golden\.json|(^|\/)expected\.json)$/i;

function dirsUnder(dir: string, out: string[]): void {
  out.push(dir);
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) if (e.isDirectory()) dirsUnder(path.join(dir, e.name), out);
}

/** What `hnsight reach ARGS` prints, with its exit code; a refusal as its message. */
async function cli(args: string[]): Promise<string> {
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((s: string | Uint8Array) => {
    chunks.push(typeof s === 'string' ? s : Buffer.from(s).toString('utf8'));
    return true;
  }) as typeof process.stdout.write;
  try {
    const code = await runReach(args);
    // The tree's own path (in each class's `trace` command) is the same text in any tree.
    return `exit ${code}\n${chunks.join('').replaceAll(ROOT, '<root>')}`;
  } catch (e) {
    return `refused: ${e instanceof Error ? e.message.replaceAll(ROOT, '<root>') : String(e)}`;
  } finally {
    process.stdout.write = write;
  }
}

async function write(outDir: string, big: string[], genCache: string, corpusDir: string, maxSources: number, bigOnly: boolean): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const fx: string[] = [];
  dirsUnder(path.join(ROOT, 'test/fixtures'), fx);
  const corpus = existsSync(corpusDir) ? readdirSync(corpusDir).filter((f) => !NOT_INPUT.test(f)).sort().map((f) => path.join(corpusDir, f)) : [];
  const demos = readdirSync(path.join(ROOT, 'assets/demo')).sort().map((d) => path.join(ROOT, 'assets/demo', d)).filter((d) => statSync(d).isDirectory());
  const inputs = bigOnly ? [] : [...fx, ...demos, ...corpus, ...generated(genCache)];
  let docs = 0;
  const put = (name: string, text: string) => {
    writeFileSync(path.join(outDir, `${name}.txt`), text);
    docs++;
  };
  const nameOf = (input: string) => {
    // Named the same in any tree: inside it by its path there, outside by its last two path parts.
    const rel = path.relative(ROOT, input);
    return (rel.startsWith('..') || path.isAbsolute(rel) ? input.split(path.sep).slice(-2).join('/') : rel || 'root').replace(/[^A-Za-z0-9._-]+/g, '__');
  };
  const sourcesOf = async (input: string, n: number) => {
    try {
      const model = await loadBundle(input);
      return [...defaultSources(model), ...sources6(model)].slice(0, n).map((s) => s.ip);
    } catch {
      return [];
    }
  };
  for (const input of inputs) {
    const name = nameOf(input);
    put(`${name}--matrix`, await cli([input, '--json']));
    for (const ip of await sourcesOf(input, maxSources)) put(`${name}--from-${ip.replace(/[:.]/g, '_')}`, await cli([input, '--from', ip, '--json']));
    process.stderr.write(`${name}\n`);
  }
  for (const b of big) for (const ip of await sourcesOf(b, 1)) put(`${nameOf(path.resolve(b))}--from-${ip.replace(/[:.]/g, '_')}`, await cli([path.resolve(b), '--from', ip, '--json', '--no-findings']));
  process.stdout.write(`wrote ${docs} documents from ${inputs.length + big.length} inputs to ${outDir}\n`);
}

function compare(a: string, b: string): number {
  const names = [...new Set([...readdirSync(a), ...readdirSync(b)])].sort();
  const differ = names.filter((n) => !existsSync(path.join(a, n)) || !existsSync(path.join(b, n)) || !readFileSync(path.join(a, n)).equals(readFileSync(path.join(b, n))));
  for (const n of differ) process.stdout.write(`differs: ${n}\n`);
  const refused = names.filter((n) => existsSync(path.join(b, n)) && readFileSync(path.join(b, n), 'utf8').startsWith('refused:')).length;
  const classes = names.filter((n) => n.includes('--from-')).length;
  process.stdout.write(`${names.length - differ.length} of ${names.length} documents identical (${classes} of classes, ${names.length - classes} matrices; ${refused} are a refusal)\n`);
  return differ.length ? 1 : 0;
}

const [mode, ...rest] = process.argv.slice(2);
const flag = (name: string) => rest.flatMap((x, i) => (x === name && rest[i + 1] ? [rest[i + 1] as string] : []));
if (mode === 'write' && rest[0])
  await write(rest[0], flag('--big'), flag('--gen-cache')[0] ?? '/tmp/hnsight-reach-compare-gen', path.resolve(flag('--corpus')[0] ?? path.join(ROOT, '../shared/corpus')), Number(flag('--max-sources')[0] ?? '1000'), rest.includes('--big-only'));
else if (mode === 'compare' && rest[0] && rest[1]) process.exitCode = compare(rest[0], rest[1]);
else {
  process.stderr.write('usage: reach-compare.ts write OUT_DIR [--big BUNDLE]... [--big-only] [--gen-cache DIR] [--corpus DIR] [--max-sources N] | compare BEFORE_DIR AFTER_DIR\n');
  process.exitCode = 2;
}
