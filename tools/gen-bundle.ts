// npm run gen -- --out DIR [--platform NAME] [--pods N] [--services M] [--remote-nodes K] [--network l2bridge|overlay]
//   [--schema 1|2] [--vfp list-rule|get-rule-counter] [--build 10.0.20348.2340] [--host NAME]
//   [--encoding utf16le-bom|utf8|utf8-bom] [--eol crlf|lf] [--zip flat|top-folder] [--no-extras]
//   [--seed N] [--fault NAME]... [--no-kubectl] [--no-slices] [--expected FILE]
// npm run gen -- --cluster N --out DIR [--platform NAME] [--pods N] [--services M] [--fault stale-pa|missing-lb|
//   exception-list-differs|other-build]... [--seed N] [--zip …] [--expected FILE]   N nodes of one cluster, a bundle each
// npm run gen -- --demo        rewrites assets/demo/* deterministically.

import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNode, DEFAULT_SPEC, writeBundle, writeDemos, planCluster, writeCluster, CLUSTER_FAULTS, FAULTS, PLATFORM_FAULTS, PLATFORMS, type ClusterFaultName, type NodeSpec, type WriteOptions } from './gen/index.ts';

function usage(msg?: string): never {
  if (msg) process.stderr.write(`gen-bundle: ${msg}\n`);
  process.stderr.write(
    'usage: npm run gen -- --out DIR [--platform NAME] [--pods N] [--services M] [--remote-nodes K] [--network l2bridge|overlay] [--schema 1|2]\n' +
      '         [--vfp list-rule|get-rule-counter] [--build 10.0.20348.2340] [--host NAME] [--encoding utf16le-bom|utf8|utf8-bom]\n' +
      '         [--eol crlf|lf] [--zip flat|top-folder] [--no-extras] [--seed N] [--fault NAME]... [--no-kubectl] [--no-slices] [--expected FILE]\n' +
      '       npm run gen -- --cluster N --out DIR [--platform NAME] [--pods N] [--services M] [--fault NAME]... [--seed N] [--zip flat|top-folder] [--expected FILE]\n' +
      `       npm run gen -- --demo\n  platforms: ${PLATFORMS.join(', ')}\n  faults: ${FAULTS.join(', ')}\n  platform faults: ${PLATFORM_FAULTS.join(', ')}\n  cluster faults (--cluster): ${CLUSTER_FAULTS.join(', ')}\n`,
  );
  process.exit(2);
}

function oneOf<T extends string>(v: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(v)) usage(`${flag} must be one of ${allowed.join(', ')}`);
  return v as T;
}

async function main() {
  const args = process.argv.slice(2);
  const spec: NodeSpec = { ...DEFAULT_SPEC, faults: [] };
  const opts: WriteOptions = {};
  let out: string | undefined;
  let expectedFile: string | undefined;
  let demo = false;
  let buildGiven = false;
  let clusterNodes: number | undefined;
  const faults: string[] = [];
  const given = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const val = () => {
      const v = args[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    const num = () => {
      const v = Number(val());
      if (!Number.isInteger(v) || v < 0) usage(`${a} needs a non-negative integer`);
      return v;
    };
    given.add(a);
    switch (a) {
      case '--demo': demo = true; break;
      case '--cluster': clusterNodes = num(); break;
      case '--out': out = val(); break;
      case '--pods': spec.pods = num(); break;
      case '--services': spec.services = num(); break;
      case '--remote-nodes': spec.remoteNodes = num(); break;
      case '--network': spec.network = oneOf(val(), ['l2bridge', 'overlay'] as const, a); break;
      case '--platform': spec.platform = oneOf(val(), PLATFORMS, a); break;
      case '--no-kubectl': opts.kubectl = false; break;
      case '--no-slices': opts.slices = false; break;
      case '--schema': spec.schema = Number(oneOf(val(), ['1', '2'] as const, a)) as 1 | 2; break;
      case '--vfp': spec.vfpGeneration = oneOf(val(), ['list-rule', 'get-rule-counter'] as const, a); break;
      case '--build': spec.windowsBuild = val(); buildGiven = true; break;
      case '--host': spec.hostName = val(); break;
      case '--encoding': opts.encoding = oneOf(val(), ['utf16le-bom', 'utf8', 'utf8-bom'] as const, a); break;
      case '--eol': opts.eol = oneOf(val(), ['crlf', 'lf'] as const, a); break;
      case '--zip': opts.zip = oneOf(val(), ['flat', 'top-folder'] as const, a); break;
      case '--no-extras': opts.extras = false; break;
      case '--seed': spec.seed = num(); break;
      case '--fault': faults.push(val()); break;
      case '--expected': expectedFile = val(); break;
      case '-h': case '--help': return usage();
      default: usage(`unknown argument ${a}`);
    }
  }
  if (demo) {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
    for (const d of await writeDemos(join(root, 'assets', 'demo'))) process.stdout.write(`wrote ${d}\n`);
    return;
  }
  if (!out) usage('--out DIR is required');
  if (clusterNodes !== undefined) return writeClusterCmd(clusterNodes, out, spec, opts, faults, given, expectedFile);
  for (const f of faults) spec.faults!.push(oneOf(f, [...FAULTS, ...PLATFORM_FAULTS], '--fault'));
  // Schema 1 bundles come from the pre-2022 script, i.e. typically Windows Server 2019.
  if (!buildGiven && spec.schema === 1) spec.windowsBuild = '10.0.17763.5830';
  const t0 = Date.now();
  let node;
  try {
    node = buildNode(spec);
  } catch (e) {
    usage((e as Error).message);
  }
  const res = await writeBundle(node, out, opts);
  if (expectedFile) await writeFile(expectedFile, JSON.stringify(node.expected, null, 2) + '\n');
  const c = node.expected.counts;
  process.stdout.write(
    `wrote ${res.path} (${res.entries.length} files, ${res.bytes} bytes) in ${((Date.now() - t0) / 1000).toFixed(1)} s\n` +
      `  endpoints ${c.endpoints} (${c.localEndpoints} local), load balancers ${c.loadBalancers}, VFP ports ${c.vfpPorts}, layers ${c.vfpLayers}, rules ${c.vfpRules}, IPv4 routes ${c.ipv4Routes}\n`,
  );
}

async function writeClusterCmd(n: number, out: string, spec: NodeSpec, opts: WriteOptions, faults: string[], given: Set<string>, expectedFile?: string) {
  for (const flag of ['--network', '--remote-nodes', '--host']) if (given.has(flag)) usage(`${flag} does not apply to --cluster (the platform decides the network; the cluster names its nodes and peers)`);
  const t0 = Date.now();
  let plan;
  try {
    plan = planCluster({
      nodes: n,
      platform: spec.platform ?? 'flannel-vxlan',
      seed: spec.seed,
      pods: given.has('--pods') ? spec.pods : 4,
      services: given.has('--services') ? spec.services : 6,
      schema: spec.schema,
      vfpGeneration: spec.vfpGeneration,
      windowsBuild: spec.windowsBuild,
      faults: faults.map((f) => oneOf(f, CLUSTER_FAULTS, '--fault') as ClusterFaultName),
    });
  } catch (e) {
    usage((e as Error).message);
  }
  const res = await writeCluster(plan, out, opts, (i, p) => {
    if (n > 20 && (i + 1) % 50 === 0) process.stderr.write(`  ${i + 1}/${n} ${p}\n`);
  });
  if (expectedFile) await writeFile(expectedFile, JSON.stringify(plan.expected, null, 2) + '\n');
  process.stdout.write(`wrote ${res.paths.length} ${plan.spec.platform} node bundles to ${out} (${res.bytes} bytes) in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  for (const f of plan.expected.faults) process.stdout.write(`  ${f.name}: ${f.detail}\n`);
}

main().catch((e) => {
  process.stderr.write(`gen-bundle: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
