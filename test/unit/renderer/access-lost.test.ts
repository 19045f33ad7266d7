// Browser mode: a server that no longer accepts this tab (restarted on the same port, a new token) is
// said once, in words, with the server's own reason (services/server/access.ts), as the error screen
// — and a failure of the first call does not bury it under "the backend cannot be reached".
import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import { accessLostMessage, onAccessLost, reportAccessLost } from '../../../renderer/src/api/access-lost.ts';
import { checkAccess } from '../../../services/server/access.ts';
import { fakeApi } from './fake-api.ts';

describe('a tab its server no longer accepts', () => {
  it('says which server and why, from the server’s own refusal', () => {
    // The refusal a restarted server sends to a tab holding the old server's token.
    const denial = checkAccess({ remoteAddress: '127.0.0.1', host: '127.0.0.1:41234', port: 41234, needsToken: true, headerToken: 'old-token' }, (t) => t === 'new-token');
    expect(denial?.status).toBe(401);
    const msg = accessLostMessage(denial!.message, '127.0.0.1:41234');
    expect(msg).toMatch(/^The hnsight server at 127\.0\.0\.1:41234 no longer accepts this tab\. This page belongs to an hnsight server that is no longer running on this port/);
    expect(msg).toMatch(/open the URL the running hnsight printed when it started\.$/);
    expect(msg).not.toMatch(/401|Unauthorized/);
  });

  it('tells a tab opened without the token (a new tab) that it needs the printed URL, not that something changed', () => {
    const denial = checkAccess({ remoteAddress: '127.0.0.1', host: '127.0.0.1:41234', port: 41234, needsToken: true }, () => false);
    const msg = accessLostMessage(denial!.message, '127.0.0.1:41234');
    expect(msg).toMatch(/^The hnsight server at 127\.0\.0\.1:41234 does not accept this tab\. This tab was opened without the token/);
    expect(msg).toMatch(/a new tab needs that URL again/);
  });

  it('shows it as the error screen once, and keeps it when the first call fails with it', async () => {
    const api = fakeApi({
      info: vi.fn(async () => {
        // As http-api.ts does: report, then fail the call.
        reportAccessLost('The hnsight server at 127.0.0.1:1 no longer accepts this tab. Open the URL.');
        throw new Error('The hnsight server at 127.0.0.1:1 no longer accepts this tab. Open the URL.');
      }),
    });
    const store = createAppStore({ api });
    const off = onAccessLost((m) => store.getState().accessLost(m));
    try {
      await store.getState().init();
      expect(store.getState().fatal).toEqual({ kind: 'access', message: 'The hnsight server at 127.0.0.1:1 no longer accepts this tab. Open the URL.' });
      // Later failures say nothing new.
      store.getState().accessLost('another');
      expect(store.getState().fatal?.message).toMatch(/^The hnsight server at 127\.0\.0\.1:1/);
    } finally {
      off();
    }
  });

  it('closes the dialogs over it', async () => {
    const store = createAppStore({ api: fakeApi() });
    store.getState().setSummaryOpen(true);
    store.getState().setKeymapOpen(true);
    store.getState().accessLost('gone');
    expect(store.getState()).toMatchObject({ summaryOpen: false, keymapOpen: false, fatal: { kind: 'access', message: 'gone' } });
  });
});
