// What the fuzz harness runs on every input: the loader — its pure part (parseBundleFile on each
// file, assembleModel), or for some cases the real one on a damaged zip — and every analysis the app and the CLI offer — the checks under their budget, the
// inspect document, the summary, both topologies, the inventory, search, the inspector of every kind
// of object, the walk presets and their walks, the report in HTML and Markdown, the diff against the
// unmutated bundle, the CNI timelines, and the cluster
// analyses of a 2-node cluster of the mutated node and the unmutated one (model, checks, document, graph,
// fleet summary, walks across). A crash throws; a check or view over its budget is returned.
import { parseBundleFile } from '../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../parsers/model/assemble.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import { CHECKS, runChecks } from '../../analysis/checks/index.ts';
import { OverBudgetError, WorkBudget, withBudget, type BudgetOptions } from '../../analysis/budget.ts';
import { inspectDocument } from '../../analysis/inspect.ts';
import { buildSummary } from '../../analysis/view-models/summary.ts';
import { buildTopology } from '../../analysis/topology.ts';
import { buildInventory } from '../../analysis/view-models/inventory.ts';
import { buildSearchIndex } from '../../analysis/view-models/search.ts';
import { ruleCorpusSteps, type RuleCorpus } from '../../analysis/view-models/rule-corpus.ts';
import { buildInspector } from '../../analysis/view-models/inspector.ts';
import { findingViews } from '../../analysis/view-models/findings.ts';
import { walkPresets } from '../../analysis/walk/presets.ts';
import { walkFlow } from '../../analysis/walk/engine.ts';
import { withPathFindings } from '../../analysis/walk/findings-on-path.ts';
import { buildPastePreview } from '../../analysis/view-models/paste-preview.ts';
import { buildReport, renderReport } from '../../analysis/report/index.ts';
import { diffModels } from '../../analysis/diff/index.ts';
import { buildTimelines } from '../../analysis/timeline/index.ts';
import { searchBundle } from '../../services/backend/search.ts';
import { buildClusterModel, clusterDocument, formatStitched, Interner, nodeDigest, runClusterChecks, summarizeFleet, walkAcross, withAcrossFindings } from '../../analysis/cluster/index.ts';
import { clusterGraph, walkLitIds } from '../../analysis/view-models/cluster-graph.ts';
import { modelFindings } from '../../analysis/view-models/findings.ts';
import type { Finding } from '../../analysis/findings/types.ts';
import type { Flow } from '../../analysis/walk/types.ts';
import { loadBundle } from '../../services/bundle/load.ts';
import { BundleOpenError } from '../../services/bundle/source.ts';
import type { BundleLimits } from '../../services/bundle/limits.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeZip } from '../helpers/zip.ts';
import { plantedLeaks } from './hostile.ts';

export type Files = [name: string, bytes: Uint8Array][];

/** Steps each check and each view may count; generous for inputs of a few MB. */
export const FUZZ_BUDGET: BudgetOptions = { maxSteps: 50_000_000 };

export interface Outcome {
  /** Checks and views that spent their budget ("not evaluated: over budget"). */
  overBudget: string[];
  /** Checks that threw (handled: a check-failed finding), with their message. */
  checkFailed: string[];
}

export function loadFiles(files: Files): NodeModel {
  const parsed = files.map(([name, bytes]) => parseBundleFile(name, bytes));
  return assembleModel(parsed, { location: '(fuzz)', kind: 'folder', root: '' });
}

/** `trace`: told each piece of work as it starts (to find which one runs away). */
export function exercise(files: Files, base?: NodeModel, trace?: (what: string) => void): Outcome {
  const out: Outcome = { overBudget: [], checkFailed: [] };
  const m = runView(out, 'load', () => loadFiles(files), trace)!;
  // What the paste dialog shows for a text: each file as if pasted under a neutral name.
  for (const [name, bytes] of files.slice(0, 3)) runView(out, `paste preview ${name}`, () => buildPastePreview(parseBundleFile('pasted text.txt', bytes)), trace);
  analyse(out, m, base, trace);
  return out;
}

/** Budgets of the zip path: small, so a case that reaches them is read quickly and says so. */
export const FUZZ_LIMITS: BundleLimits = { maxEntryBytes: 32 * 1024 * 1024, maxTotalBytes: 64 * 1024 * 1024, maxEntries: 2000 };

/**
 * The real loader on the bundle as a zip whose bytes were then damaged (`zip.flips`: positions as
 * fractions of its length; `zip.cut`: where it ends): open, inflate within budgets, parse (big files
 * in the worker), assemble; then every analysis. A refusal of the whole zip is an answer, not a crash.
 */
export async function exerciseZip(files: Files, zip: ZipDamage, base?: NodeModel): Promise<Outcome> {
  const out: Outcome = { overBudget: [], checkFailed: [] };
  const bytes = new Uint8Array(await makeZip(Object.fromEntries(files)));
  for (const f of zip.flips) bytes[Math.floor(f * bytes.length)] ^= 0xff;
  const damaged = zip.cut !== undefined ? bytes.subarray(0, Math.floor(zip.cut * bytes.length)) : bytes;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hnsight-fuzz-zip-'));
  try {
    const file = path.join(dir, 'bundle.zip');
    await writeFile(file, damaged);
    let m: NodeModel;
    try {
      m = await loadBundle(file, { limits: FUZZ_LIMITS });
    } catch (e) {
      if (e instanceof BundleOpenError) return out;
      throw new Error(`loadBundle: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    analyse(out, m, base);
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ZipDamage {
  flips: number[];
  cut?: number;
}

function runView<T>(out: Outcome, what: string, fn: () => T, trace?: (what: string) => void): T | undefined {
  trace?.(what);
  try {
    return withBudget(new WorkBudget(FUZZ_BUDGET), fn);
  } catch (e) {
    if (e instanceof OverBudgetError) {
      out.overBudget.push(what);
      return undefined;
    }
    throw new Error(`${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
}

function analyse(out: Outcome, m: NodeModel, base?: NodeModel, trace?: (what: string) => void): void {
  const view = <T>(what: string, fn: () => T): T | undefined => runView(out, what, fn, trace);
  trace?.('checks');
  const findings = runChecks(m, CHECKS, FUZZ_BUDGET);
  for (const f of findings) {
    if (f.id === 'check-over-budget') out.overBudget.push(`check ${f.objects[0]}`);
    if (f.id === 'check-failed') out.checkFailed.push(`${f.objects[0]}: ${f.explanation}`);
  }
  view('inspect', () => inspectDocument(m, findings));
  view('summary', () => buildSummary(m, 'b1', 0));
  const views = view('findings', () => findingViews(m, findings)) ?? [];
  const topo = view('topology', () => buildTopology(m));
  view('topology expanded', () => buildTopology(m, { expandLoadBalancers: true }));
  view('inventory', () => buildInventory(m));
  // The app's index: the objects and each dump's rule corpus (built in slices there, at once here).
  const corpus = (g: Generator<unknown, RuleCorpus | undefined>) => {
    for (;;) {
      const s = g.next();
      if (s.done) return s.value;
    }
  };
  const index = view('search index', () => ({ objects: buildSearchIndex(m), rules: (m.vfp?.files ?? []).map((f, i) => corpus(ruleCorpusSteps(f.bytes, f.index, i))) }));
  if (index) {
    for (const q of ['10.', 'lb', 'rule', '(a+)+$', 'ffff', '']) view(`search ${q}`, () => searchBundle(m, index, q, 50));
    // A dump too varied for a corpus is searched in its bytes.
    for (const q of ['10.', 'rule']) view(`search bytes ${q}`, () => searchBundle(m, { ...index, rules: [] }, q, 50));
  }
  // One inspector of each kind of object the graph shows.
  const seen = new Set<string>();
  for (const n of topo?.nodes ?? []) {
    if (!n.ref || seen.has(n.ref.type)) continue;
    seen.add(n.ref.type);
    view(`inspector ${n.ref.type}`, () => buildInspector(m, n.ref!));
  }
  const presets = view('walk presets', () => walkPresets(m)) ?? [];
  for (const p of presets.slice(0, 6)) view(`walk ${p.flow.srcIp}->${p.flow.dstIp}`, () => walkFlow(m, p.flow, { explain: true }));
  // The app's walk: the reply too, joined with the findings on its path.
  for (const p of presets.slice(0, 2)) view(`walk with reply ${p.flow.srcIp}->${p.flow.dstIp}`, () => withPathFindings(m, walkFlow(m, p.flow, { explain: true, reply: true }), views));
  const doc = view('report', () => buildReport(m, { findings: views, redact: false }));
  if (doc) {
    view('report html', () => renderReport(doc, 'html'));
    view('report md', () => renderReport(doc, 'md'));
  }
  const red = view('report redacted', () => buildReport(m, { findings: views, redact: true, flows: presets.slice(0, 2).map((p) => p.flow) }));
  if (red) {
    // An identifier plantIds put in (hostile.ts) that a redacted report still shows is a finding.
    view('report redacted: planted identifiers', () => {
      const left = plantedLeaks([JSON.stringify(red), renderReport(red, 'md'), renderReport(red, 'html')].join('\n'));
      if (left.length) throw new Error(`the redacted report shows ${left.join(', ')}`);
    });
  }
  if (base) view('diff', () => diffModels(base, m, { findingsA: [], findingsB: findings }));
  view('timelines', () => buildTimelines(m.logs ?? []));
  if (base) analyseCluster(out, m, findings, base, presets.slice(0, 2).map((p) => p.flow), trace);
}

const cleanChecks = new WeakMap<NodeModel, Finding[]>();

/**
 * The mutated node and a clean copy of the bundle it came from as a 2-node cluster, the way
 * `inspect --cluster`, `fleet` and `trace A B` and the app's cluster view see them: the model, its
 * checks, the document, the graph, the fleet lines, and walks across both ways.
 */
function analyseCluster(out: Outcome, m: NodeModel, findings: Finding[], base: NodeModel, flows: Flow[], trace?: (what: string) => void): void {
  const view = <T>(what: string, fn: () => T): T | undefined => runView(out, what, fn, trace);
  // The clean node is the same model for every case of its base (child-main.ts keeps one per base): its
  // checks are worked out once, not once per case.
  let baseFindings = cleanChecks.get(base);
  if (!baseFindings) {
    baseFindings = view('cluster: clean node checks', () => runChecks(base, CHECKS, FUZZ_BUDGET));
    if (baseFindings) cleanChecks.set(base, baseFindings);
  }
  baseFindings ??= [];
  const interner = new Interner();
  const digests = view('cluster: digests', () => [
    nodeDigest(m, { id: m.meta.hostName ?? 'mutated', bundle: '/fuzz/mutated', findings, interner }),
    nodeDigest(base, { id: base.meta.hostName ?? 'clean', bundle: '/fuzz/clean', findings: baseFindings, interner }),
  ]);
  if (!digests) return;
  const cluster = view('cluster: model', () => buildClusterModel([{ digest: digests[0], model: m }, { digest: digests[1], model: base }], { joins: true }));
  if (!cluster) return;
  const across = view('cluster: checks', () => runClusterChecks(cluster)) ?? [];
  view('cluster: document', () => clusterDocument(cluster, new Map(cluster.nodes.map((n, i) => [n.id, i === 0 ? findings : baseFindings])), across));
  view('cluster: graph', () => clusterGraph(cluster, across));
  view('cluster: fleet', () => summarizeFleet(digests));
  for (const flow of flows) {
    const w = view(`cluster: walk across ${flow.srcIp}->${flow.dstIp}`, () => withAcrossFindings(cluster, walkAcross(cluster, flow, { explain: true, reply: true }), across, modelFindings));
    if (w) {
      view(`cluster: walk text ${flow.srcIp}->${flow.dstIp}`, () => formatStitched(w));
      view(`cluster: walk lit ${flow.srcIp}->${flow.dstIp}`, () => walkLitIds(cluster, w));
    }
  }
}
