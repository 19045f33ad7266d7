// A worker that rebuilds a node the way the backend's workers do and uses it as they do: one walk, and
// one rule read from the VFP dump's bytes (what failed with 'src.read is not a function' when a worker
// took the dump without reviving it). `raw` skips the revival: the test shows that this fails.
import { parentPort } from 'node:worker_threads';
import { reviveNode, type HandedFile } from '../../../../services/backend/revive-node.ts';
import { isPacked } from '../../../../services/backend/packed-files.ts';
import { loadOrigin } from '../../../../services/bundle/load.ts';
import { walkFlow } from '../../../../analysis/walk/engine.ts';
import { readRuleAt } from '../../../../parsers/vfp/rule-at.ts';
import { indexBuffersShared } from '../../../../parsers/vfp/scan-index.ts';
import type { BundleOrigin } from '../../../../services/bundle/origin.ts';
import type { Flow } from '../../../../analysis/walk/types.ts';

export interface ProbeIn {
  origin: BundleOrigin;
  reuse: HandedFile[];
  flow: Flow;
  raw?: boolean;
}

export type ProbeOut = { verdict: string; hops: number; rule?: { id?: string; line?: number }; reused: number; shared: boolean; rules: number } | { error: string };

parentPort!.once('message', (m: ProbeIn) => {
  const go = async () => {
    const model = m.raw ? await loadOrigin(m.origin, { reuse: new Map(m.reuse.flatMap((p) => (isPacked(p) ? [] : [[p.name, p] as const]))), bigFileBytes: Number.POSITIVE_INFINITY }) : await reviveNode(m);
    const walk = walkFlow(model, m.flow, { explain: true, reply: true });
    const dump = model.vfp!.files[0]!;
    const rule = readRuleAt(dump.bytes, dump.index, 0);
    const reused = model.vfp!.files.filter((f) => m.reuse.some((p) => !isPacked(p) && p.content.type === 'vfp' && p.content.index.file === f.index.file)).length;
    // Whether the dump's index reads the memory of the node it was posted from, not a clone of it.
    const shared = indexBuffersShared(dump.index);
    return { verdict: walk.verdict, hops: walk.hops.length, rule: rule && { id: rule.id, line: rule.src?.line }, reused, shared, rules: dump.index.ruleByte.length };
  };
  go().then(
    (r) => parentPort!.postMessage(r satisfies ProbeOut),
    (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies ProbeOut),
  );
});
