// The one dispatch of the contract: every request validated once (strict schemas), handlers reached
// only with what fits, every outcome an envelope with a one-line message and a kind.
import { describe, expect, it, vi } from 'vitest';
import { createDispatcher, oneLine, type Handlers } from '../../../services/backend/dispatch.ts';
import { ApiError } from '../../../contract/index.ts';

function handlers(over: Partial<Handlers> = {}): Handlers {
  return new Proxy(over as Handlers, {
    get: (t, k) => (k in t ? t[k as keyof Handlers] : vi.fn(async () => ({ ok: true }))),
  });
}

describe('createDispatcher', () => {
  it('answers a valid call with its value, and a missing body for methods without arguments', async () => {
    const listRecent = vi.fn(async () => []);
    const call = createDispatcher(handlers({ listRecent }));
    expect(await call('listRecent', undefined)).toEqual({ ok: true, value: [] });
    expect(listRecent).toHaveBeenCalledWith({});
  });

  it('keeps replies that carry an error field as values (a failed load job)', async () => {
    const job = { jobId: 'job-1', state: 'error' as const, location: '/x', progress: { phase: 'done' as const, filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 }, error: 'could not load' };
    const call = createDispatcher(handlers({ getJob: async () => job }));
    expect(await call('getJob', { jobId: 'job-1' })).toEqual({ ok: true, value: job });
  });

  it('refuses bad arguments with a readable message, before the handler', async () => {
    const openBundle = vi.fn(async () => ({ jobId: 'j' }));
    const getTopology = vi.fn();
    const call = createDispatcher(handlers({ openBundle, getTopology }));
    expect(await call('openBundle', { path: 42 })).toEqual({ ok: false, kind: 'invalid', error: expect.stringMatching(/^bad arguments for openBundle: path /) });
    expect(await call('openBundle', { path: '/x', evil: true })).toMatchObject({ ok: false, kind: 'invalid', error: expect.stringMatching(/bad arguments for openBundle/) });
    expect(await call('getTopology', { bundleId: '../../etc' })).toMatchObject({ ok: false, error: expect.stringMatching(/bad arguments for getTopology: bundleId/) });
    expect(openBundle).not.toHaveBeenCalled();
    expect(getTopology).not.toHaveBeenCalled();
  });

  it('refuses unknown methods, including inherited property names', async () => {
    const call = createDispatcher(handlers());
    expect(await call('deleteEverything', {})).toEqual({ ok: false, kind: 'invalid', error: 'unknown method "deleteEverything"' });
    expect(await call('__proto__', {})).toMatchObject({ ok: false, kind: 'invalid' });
    expect(await call('toString', {})).toMatchObject({ ok: false, kind: 'invalid' });
  });

  it('keeps the kind of an ApiError; anything else is a failure logged with its stack, answered in one line', async () => {
    const log = vi.fn();
    const call = createDispatcher(
      handlers({
        getInventory: async () => {
          throw new ApiError('bundle b1 is not open', 'not-found');
        },
        getFindings: async () => {
          throw new Error('boom\n    at check (x.ts:1:1)');
        },
      }),
      { log },
    );
    expect(await call('getInventory', { bundleId: 'b1' })).toEqual({ ok: false, kind: 'not-found', error: 'bundle b1 is not open' });
    expect(log).not.toHaveBeenCalled();
    expect(await call('getFindings', { bundleId: 'b1' })).toEqual({ ok: false, kind: 'failed', error: 'boom' });
    expect(log).toHaveBeenCalledOnce();
    expect(log.mock.calls[0][0]).toMatch(/at check/);
  });

  it('makes one-line messages from anything thrown', () => {
    expect(oneLine('plain')).toBe('plain');
    expect(oneLine({})).toBe('unexpected error');
    expect(oneLine(new Error('a\nb'))).toBe('a');
  });
});
