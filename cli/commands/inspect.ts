// `hnsight inspect <bundle> [--json]`, `hnsight inspect a.txt b.txt …` (several single outputs read
// as one node), `hnsight inspect -` (a paste on standard input).
import { UsageError } from '../errors.ts';
import { parseFlags } from '../args.ts';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CORE_KINDS, loadBundle, loadTexts, type LoadOptions } from '../../services/bundle/load.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import { BundleOpenError } from '../../services/bundle/source.ts';
import { ENV_MAX_FILE, formatBytes, limitsFromEnv } from '../../services/bundle/limits.ts';
import { inspectDocument } from '../../analysis/inspect.ts';
import { formatInspectText } from '../format/inspect-text.ts';
import { CHECKS, runChecks } from '../../analysis/checks/index.ts';
import { clusterDocument, runClusterChecks } from '../../analysis/cluster/index.ts';
import { discoverBundles, type FoundBundle } from '../../services/cluster/discover.ts';
import { loadCluster } from '../../services/cluster/load.ts';
import { formatClusterText } from '../format/cluster-text.ts';
import { ANALYSIS_BUDGET } from '../../services/analysis-budget.ts';
import { outputColumns, writeWrapped } from '../format/wrap.ts';
import { progressText } from '../format/progress-text.ts';
import { safeJson, safeText } from '../format/safe-text.ts';

export async function runInspect(argv: string[]): Promise<number> {
  const parsed = parseFlags('inspect', argv, { json: { type: 'boolean', default: false }, verbose: { type: 'boolean', short: 'v', default: false }, cluster: { type: 'boolean', default: false } });
  const targets = parsed.positionals;
  if (!targets.length) throw new UsageError('inspect needs a bundle folder, .zip or file (or - for standard input)');
  if (parsed.values.cluster) return inspectCluster(targets, parsed.values.json, parsed.values.verbose);
  if (targets.filter((t) => t === '-').length > 1) throw new UsageError('standard input (-) can be read only once');
  const showProgress = !parsed.values.json && process.stderr.isTTY;
  // Drawn when the loader starts a file; its end is reported with the same name and is not redrawn.
  let drawn: string | undefined;
  const opts: LoadOptions = {
    onProgress: showProgress
      ? (p) => {
          if (p.phase === 'reading' && p.file && p.file !== drawn) {
            drawn = p.file;
            process.stderr.write(`\r\x1b[K${progressText(p, safeText(p.file), outputColumns(process.stderr))}`);
          }
          if (p.phase === 'done') process.stderr.write('\r\x1b[K');
        }
      : undefined,
  };
  let model;
  if (targets.includes('-')) {
    // Pasted text on standard input, alone or with saved files: each read as one output.
    const items = [{ name: 'stdin', bytes: await readStdin() }];
    for (const t of targets.filter((x) => x !== '-')) items.push({ name: path.basename(t), bytes: await readSingleFile(t) });
    model = await loadTexts(items, targets.map((t) => (t === '-' ? '(standard input)' : t)).join(' + '), opts);
  } else {
    model = await loadBundle(targets.length === 1 ? targets[0] : targets, opts);
  }
  const doc = inspectDocument(model, runChecks(model, CHECKS, ANALYSIS_BUDGET));
  if (parsed.values.json) process.stdout.write(safeJson(doc) + '\n');
  else writeWrapped(process.stdout, safeText(formatInspectText(model, doc, { verbose: parsed.values.verbose })));
  return doc.findings.some((f) => f.severity === 'error') || unreadCoreFile(model) ? 1 : 0;
}

/** A file the node is built from that was not read (over a budget, unreadable): its error is listed, and the exit says so. */
function unreadCoreFile(m: NodeModel): boolean {
  return m.files.some((f) => f.encoding === 'not-read' && CORE_KINDS.has(f.kind) && f.issues.some((i) => i.severity === 'error'));
}

/** Standard input, whole (a paste is small; the bundle limits apply after). */
async function readStdin(): Promise<Uint8Array> {
  if (process.stdin.isTTY) process.stderr.write('hnsight: reading the output to inspect from standard input (end with Ctrl+D, or Ctrl+Z Enter on Windows)\n');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of process.stdin) {
    const b = typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
    size += b.length;
    if (size > 1 << 30) throw new BundleOpenError('standard input is larger than 1 GiB; save it to a file and inspect that');
    chunks.push(b);
  }
  const all = Buffer.concat(chunks);
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

async function readSingleFile(p: string): Promise<Uint8Array> {
  let st;
  try {
    st = await stat(p);
  } catch {
    throw new BundleOpenError(`no such file: ${p}`);
  }
  if (!st.isFile()) throw new BundleOpenError(`${p} is not a file: with standard input, give single files only`);
  // Read whole before the loader's budgets apply: refused here rather than held.
  const max = limitsFromEnv().maxEntryBytes;
  if (st.size > max) throw new BundleOpenError(`${p} is ${formatBytes(st.size)}, over the ${formatBytes(max)} budget for one file (${ENV_MAX_FILE})`);
  const b = await readFile(p);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** `inspect DIR --cluster` (a folder of bundles) or `inspect A B … --cluster` (each one node). */
async function inspectCluster(targets: string[], json: boolean, verbose: boolean): Promise<number> {
  if (targets.includes('-')) throw new UsageError('--cluster reads bundles from disk, not standard input');
  let bundles: FoundBundle[];
  let skipped: { name: string; reason: string }[] = [];
  if (targets.length === 1) {
    const d = await discoverBundles(targets[0]);
    if (d.isBundle) throw new BundleOpenError(`${targets[0]} is one bundle (it holds CollectLogs files itself): give the folder that holds one bundle per node, or several bundles`);
    if (!d.bundles.length) throw new BundleOpenError(`${targets[0]} holds no bundle folder or zip${d.skipped.length ? ` (${d.skipped.slice(0, 3).map((s) => `${s.name}: ${s.reason}`).join('; ')})` : ''}`);
    bundles = d.bundles;
    skipped = d.skipped;
  } else bundles = targets.map((t) => ({ path: t, name: path.basename(t), kind: /\.zip$/i.test(t) ? ('zip' as const) : ('folder' as const) }));
  const showProgress = !json && process.stderr.isTTY;
  const { cluster, findings, failed } = await loadCluster(bundles, { onBundle: showProgress ? (i, b) => process.stderr.write(`\r\x1b[Kreading ${i + 1}/${bundles.length} ${safeText(b.name)}`) : undefined });
  if (showProgress) process.stderr.write('\r\x1b[K');
  if (!cluster.nodes.length) throw new BundleOpenError(`none of the ${bundles.length} bundles could be read (${failed.map((f) => f.error).join('; ')})`);
  const doc = clusterDocument(cluster, findings, runClusterChecks(cluster), failed, skipped);
  if (json) process.stdout.write(safeJson(doc) + '\n');
  else writeWrapped(process.stdout, safeText(formatClusterText(doc, { verbose, walkWith: targets.map((t) => (/\s/.test(t) ? JSON.stringify(t) : t)).join(' ') })));
  return doc.findings.some((f) => f.severity === 'error') || doc.nodes.some((n) => n.errors > 0) ? 1 : 0;
}
