// Micro-benchmark of the detailed VFP rule parser (parsers/vfp/policy-text.ts), one fresh process:
// N real rule blocks of the big bench node (cut by the scanner's index, as readRuleAt does), parsed one
// by one, and the whole fixture/corpus dumps (other layouts), parsed whole. Prints µs per rule (wall and
// process CPU) for each; compare ratios within one run, or runs alternated, never absolute figures
// across a loaded machine. `node --cpu-prof --import tsx test/bench/rule-parse-once.ts` for a profile.
//   node --import tsx test/bench/rule-parse-once.ts [vfpOutput.txt] [rules=20000] [rounds=3]
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { scanVfpOutput } from '../../parsers/vfp/scan.ts';
import { ruleEnd } from '../../parsers/vfp/rule-at.ts';
import { parseVfpRuleText } from '../../parsers/vfp/policy-text.ts';

const file = process.argv[2] ?? '.cache/bench-node-250p-2000s/vfpOutput.txt';
const wanted = Number(process.argv[3] ?? 20000);
const rounds = Number(process.argv[4] ?? 3);

/** The first 48 MiB of the dump: enough rules, and the scan stays cheap. */
function head(path: string, bytes: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const buf = new Uint8Array(Math.min(bytes, statSync(path).size));
    readSync(fd, buf, 0, buf.length, 0);
    return buf;
  } finally {
    closeSync(fd);
  }
}

const bytes = head(file, 48 << 20);
const index = scanVfpOutput(bytes, file).value;
const dec = new TextDecoder();
const blocks: string[] = [];
// Skip the last rule (the cut may split it).
for (let r = 0; r + 1 < index.ruleByte.length && blocks.length < wanted; r++) {
  const s = index.ruleByte[r] ?? 0;
  blocks.push(dec.decode(bytes.subarray(s, ruleEnd(index, r))));
}

function time(label: string, rules: number, run: () => void): void {
  for (let k = 0; k < rounds; k++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    run();
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const cpuMs = (c.user + c.system) / 1000;
    console.log(`${label} round ${k + 1}: ${rules} rules, ${((ms * 1000) / rules).toFixed(2)} µs/rule wall, ${((cpuMs * 1000) / rules).toFixed(2)} µs/rule CPU`);
  }
}

time('big node, one rule per call', blocks.length, () => {
  for (const b of blocks) parseVfpRuleText(b, file, { defaultPortName: 'p' });
});

// Other layouts: whole dumps of the fixtures and the corpus (their own rule counts).
const dumps: string[] = [];
const walk = (dir: string): void => {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) walk(p);
    else if (/vfp/i.test(n) && !n.endsWith('.src') && statSync(p).size < 8 << 20) dumps.push(readFileSync(p, 'utf8'));
  }
};
walk('test/fixtures');
walk('../shared/corpus');
let dumpRules = 0;
for (const d of dumps) for (const p of parseVfpRuleText(d, 'x').value) for (const l of p.layers) for (const g of l.groups) dumpRules += g.rules.length;
const reps = Math.max(1, Math.ceil(20000 / Math.max(1, dumpRules)));
time(`fixtures+corpus (${dumps.length} files) x${reps}`, dumpRules * reps, () => {
  for (let i = 0; i < reps; i++) for (const d of dumps) parseVfpRuleText(d, 'x');
});
