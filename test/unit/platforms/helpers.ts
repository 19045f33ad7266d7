// Platform nodes from the generator, every file (side files included) parsed and assembled in memory.
import { bundleFiles, buildNode, type GeneratedNode, type NodeSpec, type PlatformName, type WriteOptions } from '../../../tools/gen/index.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { parseText } from '../../support/parsed-files.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

const enc = new TextEncoder();

/** The model's parsed parts are shared and frozen (test/support/parsed-files.ts): change a node through `edit` (its text), not by writing to the model. */
export function buildPlatform(platform: PlatformName, over: Partial<NodeSpec> = {}, opts: WriteOptions = {}, edit?: (path: string, text: string) => string, extra: Record<string, string> = {}): { node: GeneratedNode; model: NodeModel } {
  const node = buildNode({ seed: 7, hostName: 'win-node-0', network: 'l2bridge', schema: 2, pods: 6, services: 8, remoteNodes: 2, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340', ...over, platform });
  const parsed = bundleFiles(node, { encoding: 'utf8', eol: 'crlf', extras: true, ...opts }).map((f) => {
    const text = [...f.content()].join('');
    // Parsed once per worker for a given text (test/support/parsed-files.ts): most files of a faulty node are the healthy one's.
    return parseText(f.path, edit ? edit(f.path, text) : text);
  });
  for (const [name, text] of Object.entries(extra)) parsed.push(parseBundleFile(name, enc.encode(text)));
  return { node, model: assembleModel(parsed, { location: `mem:${platform}`, kind: 'folder', root: '' }) };
}
