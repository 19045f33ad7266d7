// `npm run fuzz -- [--minutes N] [--iterations N] [--from N]`: fuzzes the loader and every analysis
// until the time or the iterations are used up (default 10 minutes), printing progress, and saves each
// input that crashed, hung, exhausted its heap, spent a budget or made a check throw as a crasher in
// test/fuzz/crashers/ — commit it: test/fuzz/fuzz.test.ts replays every crasher on every run.
import { parseArgs } from 'node:util';
import { Harness, saveCrasher, type FuzzFinding } from './harness.ts';

const { values } = parseArgs({ options: { minutes: { type: 'string' }, iterations: { type: 'string' }, from: { type: 'string' }, 'hang-seconds': { type: 'string', default: '60' } } });
const minutes = values.minutes !== undefined ? Number(values.minutes) : values.iterations !== undefined ? Infinity : 10;
const iterations = values.iterations !== undefined ? Number(values.iterations) : Infinity;
if (!(minutes > 0) || !(iterations > 0)) {
  process.stderr.write('usage: npm run fuzz -- [--minutes N] [--iterations N] [--from N] [--hang-seconds N]\n');
  process.exit(2);
}
// Each case is made from its number alone: --from repeats a run.
const start = values.from !== undefined ? Number(values.from) : Math.floor(Math.random() * 2 ** 31);
const deadline = Date.now() + minutes * 60_000;
const harness = new Harness({ hangMs: Number(values['hang-seconds']) * 1000 });
const found: FuzzFinding[] = [];
let n = 0;
process.stderr.write(`fuzz: cases from ${start}, ${Number.isFinite(minutes) ? `${minutes} min` : `${iterations} iterations`}\n`);
try {
  for (let seed = start; n < iterations && Date.now() < deadline; seed++, n++) {
    const f = await harness.runSeed(seed);
    if (f) {
      found.push(f);
      let saved: string;
      try {
        saved = `saved ${saveCrasher(seed, f)}`;
      } catch (e) {
        saved = `not saved: ${e instanceof Error ? e.message : String(e)} (rerun with --from ${seed} --iterations 1)`;
      }
      process.stderr.write(`\nfuzz: ${f.kind} at case ${seed}: ${f.message.split('\n')[0].slice(0, 300)}\n      ${saved}\n`);
    }
    if (n % 25 === 0) process.stderr.write(`\rfuzz: ${n + 1} cases, ${found.length} finding(s)`);
  }
} finally {
  await harness.close();
}
process.stderr.write(`\rfuzz: ${n} cases from ${start}, ${found.length} finding(s)\n`);
process.exit(found.length ? 1 : 0);
