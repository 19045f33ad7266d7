// Who agrees with whom: the value most nodes share, when more than half of them (and at least two)
// share it. Without such a majority nobody is "odd" — two nodes that differ are reported as differing.
import type { ClusterModel, ClusterNode } from '../types.ts';
import type { NodeEvidence } from './types.ts';
import type { SourceRef } from '../../../parsers/types.ts';

export interface Majority {
  value: string;
  nodes: string[];
  odd: { node: string; value: string }[];
}

export function majorityOf(entries: readonly { node: string; value: string }[]): Majority | undefined {
  const by = new Map<string, string[]>();
  for (const e of entries) by.set(e.value, [...(by.get(e.value) ?? []), e.node]);
  let best: [string, string[]] | undefined;
  for (const kv of by) if (!best || kv[1].length > best[1].length) best = kv;
  if (!best || best[1].length < 2 || best[1].length * 2 <= entries.length) return undefined;
  return { value: best[0], nodes: best[1], odd: entries.filter((e) => e.value !== best![0]) };
}

/**
 * A line of a node's bundle as evidence, quoted when the node's model is held (else file:line only, as
 * in a fleet run). With `needle`, the first line from `src` on (within the object, 400 lines) that
 * holds it: the policy line inside a network object, not the object's first line.
 */
export function nodeEv(c: ClusterModel, node: ClusterNode | string, src: SourceRef | undefined, needle?: string): NodeEvidence {
  const n = typeof node === 'string' ? c.byId(node) : node;
  const id = typeof node === 'string' ? node : node.id;
  if (!src) return { node: id, file: '', line: 0, text: '' };
  const text = n?.model?.text;
  const hit = needle && text && src.line > 0 ? text.find(src.file, src.line, (t) => t.includes(needle), 400) : undefined;
  if (hit) return { node: id, file: src.file, line: hit.line, text: hit.text.trim() };
  return { node: id, file: src.file, line: src.line, text: text?.lineText(src.file, src.line)?.trim() ?? '' };
}

export const list = (xs: readonly string[], max = 5) => (xs.length <= max ? xs.join(', ') : `${xs.slice(0, max).join(', ')} and ${xs.length - max} more`);
export { plural } from '../../../parsers/text/quantities.ts';
