// A worker that rebuilds nodes as the backend's workers do (services/backend/revive-node.ts) and
// answers, per request, the rebuilt node's fingerprint and the issues of one file (how a test tells a
// record handed over from a file parsed again). Several requests per worker: one worker for a test file.
import { parentPort } from 'node:worker_threads';
import { reviveNode, type HandedFile } from '../../../../services/backend/revive-node.ts';
import { modelFingerprint } from '../model-fingerprint.ts';
import type { BundleOrigin } from '../../../../services/bundle/origin.ts';

export interface NodeProbeIn {
  id: number;
  origin: BundleOrigin;
  reuse: HandedFile[];
  /** A file whose issues to answer. */
  file?: string;
}

export type NodeProbeOut = { id: number; fingerprint: string; issues?: string[]; walkable: boolean } | { id: number; error: string };

parentPort!.on('message', (m: NodeProbeIn) => {
  reviveNode(m).then(
    (model) => {
      const issues = m.file === undefined ? undefined : model.files.find((f) => f.name === m.file)?.issues.map((i) => i.message);
      // The VFP store's methods came back (a rule's bytes can be read), not only its data.
      const walkable = !model.vfp || model.vfp.files.every((f) => typeof f.bytes.read === 'function');
      parentPort!.postMessage({ id: m.id, fingerprint: modelFingerprint(model), issues, walkable } satisfies NodeProbeOut);
    },
    (e: unknown) => parentPort!.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) } satisfies NodeProbeOut),
  );
});
