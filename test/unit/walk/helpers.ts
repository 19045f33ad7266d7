// Generated nodes assembled in memory for the trace tests, with an optional edit of any file's text
// (to inject a block rule, remove a load-balancing rule, …) before it is parsed.
import { bundleFiles, buildNode, type GeneratedNode, type NodeSpec } from '../../../tools/gen/index.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { parseText } from '../../support/parsed-files.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { decodeText } from '../../../parsers/text/decode.ts';

export const BASE: NodeSpec = { seed: 21, hostName: 'win-trace', network: 'l2bridge', schema: 2, pods: 6, services: 10, remoteNodes: 2, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340' };

/** The model's parsed parts are shared and frozen (test/support/parsed-files.ts): change a node through `edit` (its text), not by writing to the model. */
export function build(over: Partial<NodeSpec> = {}, edit?: (path: string, text: string) => string): { node: GeneratedNode; model: NodeModel } {
  const node = buildNode({ ...BASE, ...over });
  const parsed = bundleFiles(node, { encoding: 'utf8', eol: 'lf', extras: false }).map((f) => {
    const text = [...f.content()].join('');
    // Parsed once per worker for a given text (test/support/parsed-files.ts).
    return parseText(f.path, edit ? edit(f.path, text) : text);
  });
  return { node, model: assembleModel(parsed, { location: `mem:${node.hostName}`, kind: 'folder', root: '' }) };
}

export const localPods = (node: GeneratedNode) => node.expected.endpoints.filter((e) => !e.isRemote && e.compartmentId !== undefined && e.compartmentId > 1);
/** Remote endpoints that are pods on another node (not the API server, not this node's source VIP). */
export const remotePods = (node: GeneratedNode) =>
  node.expected.endpoints.filter((e) => e.isRemote && node.remoteNodes.some((r) => e.ip.startsWith(r.podSubnet.split('.').slice(0, 3).join('.') + '.')));

const models = new Map<string, NodeModel>();
/** A bundle folder under the repository, loaded once. */
export function load(dir: string, edit?: (file: string, text: string) => string): NodeModel {
  const root = path.resolve(dir);
  let m = edit ? undefined : models.get(root);
  if (m) return m;
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = path.join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(root);
  const parsed = files.map((f) => {
    const rel = path.relative(root, f).split(path.sep).join('/');
    const bytes = new Uint8Array(readFileSync(f));
    return parseBundleFile(rel, edit ? new TextEncoder().encode(edit(rel, decodeText(bytes, rel).text.replace(/\r\n/g, '\n'))) : bytes);
  });
  m = assembleModel(parsed, { location: root, kind: 'folder', root });
  if (!edit) models.set(root, m);
  return m;
}

