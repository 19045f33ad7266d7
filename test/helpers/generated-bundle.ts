// A generated bundle written to a fresh temporary folder, in this process: what `npm run gen -- --out
// DIR ...` writes (tools/gen-bundle.ts calls the same buildNode and writeBundle), without a Node and
// tsx start-up (2–3 CPU-seconds) per bundle. Tests that are about the gen command itself run it.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildNode, DEFAULT_SPEC, writeBundle, type GeneratedNode, type NodeSpec, type WriteOptions } from '../../tools/gen/index.ts';

export interface GeneratedBundle {
  /** The bundle folder (`<tmp>/node`). */
  bundle: string;
  /** Its temporary parent, for the test to remove. */
  dir: string;
  node: GeneratedNode;
}

/**
 * Writes the node `spec` describes (the generator's defaults for what it leaves out) as a bundle folder.
 * As the gen command does, a schema 1 node without a build given is a Windows Server 2019 one.
 */
export async function writeGenerated(spec: Partial<NodeSpec>, opts: WriteOptions = {}, prefix = 'hnsight-gen-'): Promise<GeneratedBundle> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const bundle = path.join(dir, 'node');
  const node = buildNode({ ...DEFAULT_SPEC, ...(spec.schema === 1 && !spec.windowsBuild ? { windowsBuild: '10.0.17763.5830' } : {}), ...spec });
  await writeBundle(node, bundle, opts);
  return { bundle, dir, node };
}
