// Prints one sha256 per generated node (every file's text and the expected results) for every platform,
// several seeds and the spec variants, so a refactor of tools/gen can be checked to change no byte:
//   node --import tsx tools/gen-fingerprint.ts > /tmp/before.txt   (before)   … > /tmp/after.txt; diff
import { createHash } from 'node:crypto';
import { buildNode, bundleFiles, DEFAULT_SPEC, FAULTS, PLATFORM_FAULTS, PLATFORMS, planCluster, buildClusterNode, type NodeSpec } from './gen/index.ts';

function fingerprint(label: string, node: ReturnType<typeof buildNode>): string {
  const h = createHash('sha256');
  for (const f of bundleFiles(node)) {
    h.update(`\0${f.path}\0`);
    for (const chunk of f.content()) h.update(chunk);
  }
  h.update(JSON.stringify(node.expected));
  return `${label} ${h.digest('hex')}`;
}

const variants: Array<[string, Partial<NodeSpec>]> = [
  ['default', {}],
  ['overlay', { network: 'overlay' }],
  ['schema1', { schema: 1, windowsBuild: '10.0.17763.5830' }],
  ['counter', { vfpGeneration: 'get-rule-counter' }],
  ['big', { pods: 12, services: 9, remoteNodes: 4 }],
];
for (const platform of PLATFORMS) {
  for (const seed of [1, 2, 7]) {
    for (const [name, v] of variants) {
      let line: string;
      try {
        line = fingerprint(`${platform} seed=${seed} ${name}`, buildNode({ ...DEFAULT_SPEC, faults: [], ...v, platform, seed }));
      } catch (e) {
        line = `${platform} seed=${seed} ${name} error ${(e as Error).message}`;
      }
      process.stdout.write(`${line}\n`);
    }
    for (const fault of [...FAULTS, ...PLATFORM_FAULTS]) {
      let line: string;
      try {
        line = fingerprint(`${platform} seed=${seed} fault=${fault}`, buildNode({ ...DEFAULT_SPEC, platform, seed, faults: [fault] }));
      } catch (e) {
        line = `${platform} seed=${seed} fault=${fault} error ${(e as Error).message}`;
      }
      process.stdout.write(`${line}\n`);
    }
  }
  if (platform === 'nat') continue; // no cluster network: planCluster refuses it
  const plan = planCluster({ nodes: 3, platform, seed: 3, pods: 4, services: 6 });
  plan.nodes.forEach((n, i) => process.stdout.write(`${fingerprint(`${platform} cluster node ${i}`, buildClusterNode(n))}\n`));
}
