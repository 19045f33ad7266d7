// A step asked about while its node closes (a paste replaced the node, its windows let it go) answers
// that the node is gone — a 404 in browser mode — not an unexpected failure of the server (a 500).
import { describe, expect, it } from 'vitest';
import { BundleStepRunner, StepCancelled } from '../../../services/backend/bundle-step-runner.ts';
import { createDispatcher, type Handlers } from '../../../services/backend/dispatch.ts';
import { ApiError } from '../../../contract/index.ts';

function runner(): BundleStepRunner<string[]> {
  return new BundleStepRunner<string[]>('b1', 'findings', undefined, () => {
    let reject!: (e: Error) => void;
    const done = new Promise<string[]>((_, r) => (reject = r));
    return { done, cancel: () => reject(new StepCancelled('stopped')) };
  });
}

describe('a step of a node that closes', () => {
  it('a request waiting on the run gets not-found when the node closes under it', async () => {
    const r = runner();
    const waiting = r.get();
    r.close();
    await expect(waiting).rejects.toMatchObject({ name: 'ApiError', kind: 'not-found' });
  });

  it('a request after the close gets not-found too, and the envelope says so', async () => {
    const r = runner();
    r.close();
    await expect(r.get()).rejects.toBeInstanceOf(ApiError);
    const dispatch = createDispatcher({ getFindings: () => r.get() } as unknown as Handlers);
    expect(await dispatch('getFindings', { bundleId: 'b1' })).toMatchObject({ ok: false, kind: 'not-found' });
  });
});
