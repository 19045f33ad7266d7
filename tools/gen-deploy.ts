// npm run deploy:manifests — writes deploy/k8s/collect-configmap.yaml: the collection script every
// Windows node runs (services/live/node-script.ts, made from the live collectors' command list), as
// the ConfigMap the HostProcess DaemonSet mounts. A test checks the committed file equals a fresh one.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectConfigMapYaml } from './deploy/configmap.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'deploy', 'k8s', 'collect-configmap.yaml');
await writeFile(out, collectConfigMapYaml());
process.stdout.write(`wrote ${out}\n`);
