// Builds NodeModels for the topology tests: generated nodes assembled in memory (the same parse and
// assemble steps loadBundle runs, without writing the files), with a filter to drop files for the
// partial-bundle cases.
import { bundleFiles, buildNode, type GeneratedNode, type NodeSpec } from '../../../tools/gen/index.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { TopologyGraph, TopoNode } from '../../../analysis/view-models/types.ts';
import { expect } from 'vitest';

export const BASE: NodeSpec = { seed: 11, hostName: 'win-node-a', network: 'l2bridge', schema: 2, pods: 6, services: 9, remoteNodes: 2, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340' };

const enc = new TextEncoder();

export function modelOf(node: GeneratedNode, keep: (path: string) => boolean = () => true): NodeModel {
  const parsed = bundleFiles(node, { encoding: 'utf8', eol: 'lf', extras: false })
    .filter((f) => keep(f.path))
    .map((f) => parseBundleFile(f.path, enc.encode([...f.content()].join(''))));
  return assembleModel(parsed, { location: `mem:${node.hostName}`, kind: 'folder', root: '' });
}

export function generated(over: Partial<NodeSpec> = {}, keep?: (path: string) => boolean): { node: GeneratedNode; model: NodeModel } {
  const node = buildNode({ ...BASE, ...over });
  return { node, model: modelOf(node, keep) };
}

/** Structural checks every graph must pass: unique ids, edges and parents pointing at real nodes, plain JSON. */
export function expectValidGraph(g: TopologyGraph): void {
  const ids = new Set<string>();
  for (const n of g.nodes) {
    expect(ids.has(n.id), `duplicate node id ${n.id}`).toBe(false);
    ids.add(n.id);
    expect(Number.isInteger(n.rank), `rank of ${n.id}`).toBe(true);
    expect(n.label, `label of ${n.id}`).not.toBe('');
    expect(Array.isArray(n.flags) && Array.isArray(n.details)).toBe(true);
  }
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  for (const n of g.nodes) {
    if (n.parent === undefined) continue;
    const p = byId.get(n.parent);
    expect(p, `parent of ${n.id}`).toBeDefined();
    expect(p!.kind).toBe('compartment');
  }
  // No empty compartment groups.
  for (const n of g.nodes.filter((x) => x.kind === 'compartment')) expect(g.nodes.some((c) => c.parent === n.id), `children of ${n.id}`).toBe(true);
  const edgeIds = new Set<string>();
  for (const e of g.edges) {
    expect(edgeIds.has(e.id), `duplicate edge id ${e.id}`).toBe(false);
    edgeIds.add(e.id);
    expect(ids.has(e.source), `edge source ${e.id}`).toBe(true);
    expect(ids.has(e.target), `edge target ${e.id}`).toBe(true);
  }
  // What the UI draws folded (ports, grouped load balancers): ids unique across both lists, each
  // attached to or inside a node that exists, edges between nodes that exist.
  const attached = g.attached ?? { nodes: [], edges: [] };
  for (const n of attached.nodes) {
    expect(ids.has(n.id), `duplicate attached node id ${n.id}`).toBe(false);
    ids.add(n.id);
  }
  for (const n of attached.nodes) {
    if (n.kind === 'vfp-port') {
      expect(byId.get(n.attachedTo!)?.kind, `host of ${n.id}`).toBe('endpoint');
      expect(n.parent, `parent of ${n.id}`).toBe(byId.get(n.attachedTo!)!.parent);
    } else {
      expect(n.kind).toBe('loadbalancer');
      expect(byId.get(n.parent!)?.kind, `group of ${n.id}`).toBe('lb-group');
    }
  }
  for (const e of attached.edges) {
    expect(edgeIds.has(e.id), `duplicate edge id ${e.id}`).toBe(false);
    edgeIds.add(e.id);
    expect(ids.has(e.source), `edge source ${e.id}`).toBe(true);
    expect(ids.has(e.target), `edge target ${e.id}`).toBe(true);
  }
  expect(JSON.parse(JSON.stringify(g))).toEqual(g);
}

export const nodesOf = (g: TopologyGraph, kind: TopoNode['kind']): TopoNode[] => g.nodes.filter((n) => n.kind === kind);

export const edgeBetween = (g: TopologyGraph, source: string, target: string) => g.edges.filter((e) => e.source === source && e.target === target);
