// Generated nodes assembled in memory for the trace tests, with an optional edit of any file's text
// (to inject a block rule, remove a load-balancing rule, …) before it is parsed.
import { bundleFiles, buildNode, type GeneratedNode, type NodeSpec } from '../../../tools/gen/index.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

export const BASE: NodeSpec = { seed: 21, hostName: 'win-trace', network: 'l2bridge', schema: 2, pods: 6, services: 10, remoteNodes: 2, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340' };

const enc = new TextEncoder();

export function build(over: Partial<NodeSpec> = {}, edit?: (path: string, text: string) => string): { node: GeneratedNode; model: NodeModel } {
  const node = buildNode({ ...BASE, ...over });
  const parsed = bundleFiles(node, { encoding: 'utf8', eol: 'lf', extras: false }).map((f) => {
    const text = [...f.content()].join('');
    return parseBundleFile(f.path, enc.encode(edit ? edit(f.path, text) : text));
  });
  return { node, model: assembleModel(parsed, { location: `mem:${node.hostName}`, kind: 'folder', root: '' }) };
}

export const localPods = (node: GeneratedNode) => node.expected.endpoints.filter((e) => !e.isRemote && e.compartmentId !== undefined && e.compartmentId > 1);
/** Remote endpoints that are pods on another node (not the API server, not this node's source VIP). */
export const remotePods = (node: GeneratedNode) =>
  node.expected.endpoints.filter((e) => e.isRemote && node.remoteNodes.some((r) => e.ip.startsWith(r.podSubnet.split('.').slice(0, 3).join('.') + '.')));
