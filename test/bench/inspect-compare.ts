// Did a change to the checks or the inspect document change what `hnsight inspect --json` prints?
// Writes the document (as the CLI prints it, safeJson) of every input below into one file each, so two
// trees can be compared byte for byte: run it in the tree before the change and in the tree after, then
// compare the two folders.
//
//   node --import tsx test/bench/inspect-compare.ts write OUT_DIR [--big BUNDLE]... [--gen-cache DIR] [--corpus DIR]
//   node --import tsx test/bench/inspect-compare.ts compare BEFORE_DIR AFTER_DIR
//
// The inputs: every folder and file under test/fixtures (what `inspect` refuses is recorded as its
// message, so a refusal that changes is seen too), the demos (assets/demo), every ../shared/corpus
// output, every generated platform's small node with and without every fault (tools/gen-bundle.ts,
// generated once into --gen-cache, default /tmp/hnsight-inspect-compare-gen), and each --big bundle
// (.cache/bench-node-250p-2000s is the 250-pod node of docs/performance.md). The document has no
// timing field today; TIMING_KEYS names the keys dropped should one appear.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generated } from './generated-inputs.ts';
import { loadBundle } from '../../services/bundle/load.ts';
import { CHECKS, runChecks } from '../../analysis/checks/index.ts';
import { ANALYSIS_BUDGET } from '../../services/analysis-budget.ts';
import { inspectDocument } from '../../analysis/inspect.ts';
import { safeJson } from '../../cli/format/safe-text.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Keys whose values are clock readings, not findings (none today). */
const TIMING_KEYS = new Set(['elapsedMs', 'durationMs', 'generatedAt']);
/** Files under test/fixtures that are not inputs (scripts, notes, expected outputs). */
const NOT_INPUT = /(\.md|\.py|\.mjs|\.cnf|\.src|\.expected\.json|\.golden\.json|(^|\/)expected\.json)$/i;

function walk(dir: string, out: { dirs: string[]; files: string[] }): void {
  out.dirs.push(dir);
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile() && !NOT_INPUT.test(p)) out.files.push(p);
  }
}

function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !TIMING_KEYS.has(k)).map(([k, x]) => [k, strip(x)]));
  return v;
}

async function write(outDir: string, big: string[], genCache: string, corpusDir: string): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const fx = { dirs: [] as string[], files: [] as string[] };
  walk(path.join(ROOT, 'test/fixtures'), fx);
  const corpus = existsSync(corpusDir) ? readdirSync(corpusDir).filter((f) => !NOT_INPUT.test(f)).sort().map((f) => path.join(corpusDir, f)) : [];
  const demos = readdirSync(path.join(ROOT, 'assets/demo')).sort().map((d) => path.join(ROOT, 'assets/demo', d)).filter((d) => statSync(d).isDirectory());
  const inputs = [...fx.dirs, ...fx.files, ...demos, ...corpus, ...generated(genCache), ...big.map((b) => path.resolve(b))];
  let refused = 0;
  for (const input of inputs) {
    // Named the same in any tree: inside it by its path there, outside by its last two path parts.
    const rel = path.relative(ROOT, input);
    const name = (rel.startsWith('..') || path.isAbsolute(rel) ? input.split(path.sep).slice(-2).join('/') : rel || 'root').replace(/[^A-Za-z0-9._-]+/g, '__');
    let text: string;
    try {
      const model = await loadBundle(input);
      text = safeJson(strip(inspectDocument(model, runChecks(model, CHECKS, ANALYSIS_BUDGET))));
    } catch (e) {
      refused++;
      text = `refused: ${e instanceof Error ? e.message.replaceAll(ROOT, '<root>') : String(e)}`;
    }
    writeFileSync(path.join(outDir, `${name}.json`), text + '\n');
  }
  process.stdout.write(`wrote ${inputs.length} documents to ${outDir} (${refused} inputs refused, their messages kept)\n`);
}

function compare(a: string, b: string): number {
  const names = [...new Set([...readdirSync(a), ...readdirSync(b)])].sort();
  const differ = names.filter((n) => !existsSync(path.join(a, n)) || !existsSync(path.join(b, n)) || !readFileSync(path.join(a, n)).equals(readFileSync(path.join(b, n))));
  for (const n of differ) process.stdout.write(`differs: ${n}\n`);
  process.stdout.write(`${names.length - differ.length} of ${names.length} documents identical\n`);
  return differ.length ? 1 : 0;
}

const [mode, ...rest] = process.argv.slice(2);
const flag = (name: string) => rest.flatMap((x, i) => (x === name && rest[i + 1] ? [rest[i + 1] as string] : []));
if (mode === 'write' && rest[0]) await write(rest[0], flag('--big'), flag('--gen-cache')[0] ?? '/tmp/hnsight-inspect-compare-gen', path.resolve(flag('--corpus')[0] ?? path.join(ROOT, '../shared/corpus')));
else if (mode === 'compare' && rest[0] && rest[1]) process.exitCode = compare(rest[0], rest[1]);
else {
  process.stderr.write('usage: inspect-compare.ts write OUT_DIR [--big BUNDLE]... [--gen-cache DIR] [--corpus DIR] | compare BEFORE_DIR AFTER_DIR\n');
  process.exitCode = 2;
}
