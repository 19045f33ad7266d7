// The Connect to node… dialog's pure helpers (form → target, progress lines, results) and its store
// driven by a fake API: the password goes to startCollect and nowhere else in the store.
import { describe, expect, it, vi } from 'vitest';
import {
  EMPTY_FORM, canOpen, formFromTarget, matchingSaved, normalizeWinRmUrl, passwordNeed, problemCommands, progressOf, resultTitle, targetFromForm, type ConnectForm,
} from '../../../renderer/src/components/connect-form.ts';
import { createCollectStore, type CollectDeps } from '../../../renderer/src/store/collect.ts';
import { collectTarget, type ApiEvent, type CollectJob, type SavedTarget } from '../../../contract/index.ts';
import { fakeEvents } from '../renderer/fake-api.ts';

const PASSWORD = 'Dial0g-Secret!';
type FormOver = { transport?: ConnectForm['transport']; winrm?: Partial<ConnectForm['winrm']>; ssh?: Partial<ConnectForm['ssh']>; kubectl?: Partial<ConnectForm['kubectl']> };
const form = (over: FormOver = {}): ConnectForm => ({
  ...EMPTY_FORM,
  ...over,
  winrm: { ...EMPTY_FORM.winrm, ...over.winrm },
  ssh: { ...EMPTY_FORM.ssh, ...over.ssh },
  kubectl: { ...EMPTY_FORM.kubectl, ...over.kubectl },
});

describe('normalizeWinRmUrl', () => {
  it('a host alone → http on 5985 /wsman; https → 5986; full URLs kept', () => {
    expect(normalizeWinRmUrl('node1')).toBe('http://node1:5985/wsman');
    expect(normalizeWinRmUrl(' 10.0.0.4 ')).toBe('http://10.0.0.4:5985/wsman');
    expect(normalizeWinRmUrl('https://node1')).toBe('https://node1:5986/wsman');
    expect(normalizeWinRmUrl('http://127.0.0.1:40123/wsman')).toBe('http://127.0.0.1:40123/wsman');
    expect(normalizeWinRmUrl('node1:5986')).toBe('http://node1:5986/wsman');
    expect(normalizeWinRmUrl('[fe80::1]')).toBe('http://[fe80::1]:5985/wsman');
  });
  it('refuses what cannot be a WinRM URL, and any user or password inside it', () => {
    expect(normalizeWinRmUrl('')).toBeUndefined();
    expect(normalizeWinRmUrl('ftp://node1')).toBeUndefined();
    expect(normalizeWinRmUrl(`http://admin:${PASSWORD}@node1`)).toBeUndefined();
    expect(normalizeWinRmUrl('http://node1/wsman?x=1')).toBeUndefined();
    expect(normalizeWinRmUrl('not a host')).toBeUndefined();
  });
});

describe('targetFromForm', () => {
  it('WinRM: a target the contract accepts', () => {
    const r = targetFromForm(form({ winrm: { url: 'node1', user: 'CORP\\admin' } }));
    expect(r.target).toEqual({ transport: 'winrm', url: 'http://node1:5985/wsman', user: 'CORP\\admin', auth: 'ntlm' });
    expect(collectTarget.safeParse(r.target).success).toBe(true);
  });
  it('WinRM: skip-TLS only for https; Basic refused on http', () => {
    expect(targetFromForm(form({ winrm: { url: 'https://n', user: 'u', insecure: true } })).target).toMatchObject({ insecureSkipTlsVerify: true });
    expect(targetFromForm(form({ winrm: { url: 'n', user: 'u', insecure: true } })).target).not.toHaveProperty('insecureSkipTlsVerify');
    expect(targetFromForm(form({ winrm: { url: 'n', user: 'u', auth: 'basic' } })).errors).toHaveProperty('auth');
    expect(targetFromForm(form({ winrm: { url: 'https://n', user: 'u', auth: 'basic' } })).target).toMatchObject({ auth: 'basic' });
  });
  it('WinRM: per-field messages; a password in the URL is refused without being repeated', () => {
    const r = targetFromForm(form({ winrm: { url: `http://admin:${PASSWORD}@node1`, user: '' } }));
    expect(Object.keys(r.errors!)).toEqual(['url', 'user']);
    expect(JSON.stringify(r.errors)).not.toContain(PASSWORD);
    expect(targetFromForm(form({ winrm: { url: 'n', user: 'a b' } })).errors).toHaveProperty('user');
  });
  it('SSH: port 22 dropped, key and known_hosts passed, bad port refused', () => {
    const r = targetFromForm(form({ transport: 'ssh', ssh: { host: 'node1', port: '22', user: 'azureuser', keyFile: '/k/id', knownHosts: '/k/kh', acceptNew: true } }));
    expect(r.target).toEqual({ transport: 'ssh', host: 'node1', user: 'azureuser', privateKeyFile: '/k/id', knownHostsFile: '/k/kh', acceptNewHostKey: true });
    expect(collectTarget.safeParse(r.target).success).toBe(true);
    expect(targetFromForm(form({ transport: 'ssh', ssh: { host: 'n', port: '2222', user: 'u' } })).target).toMatchObject({ port: 2222 });
    expect(targetFromForm(form({ transport: 'ssh', ssh: { host: 'n', port: '70000', user: 'u' } })).errors).toHaveProperty('port');
    expect(targetFromForm(form({ transport: 'ssh', ssh: { host: 'u@n', user: 'u' } })).errors).toHaveProperty('host');
  });
  it('kubectl: node name checked, optional fields dropped when empty', () => {
    expect(targetFromForm(form({ transport: 'kubectl', kubectl: { node: 'akswin000001' } })).target).toEqual({ transport: 'kubectl', node: 'akswin000001' });
    expect(targetFromForm(form({ transport: 'kubectl', kubectl: { node: 'akswin000001', context: 'prod', kubeconfig: '/k' } })).target).toMatchObject({ context: 'prod', kubeconfig: '/k' });
    expect(targetFromForm(form({ transport: 'kubectl', kubectl: { node: 'bad node' } })).errors).toHaveProperty('node');
  });
  it('passwordNeed: WinRM required, SSH with key optional (passphrase), kubectl none', () => {
    expect(passwordNeed(form())).toBe('required');
    expect(passwordNeed(form({ transport: 'ssh' }))).toBe('required');
    expect(passwordNeed(form({ transport: 'ssh', ssh: { keyFile: '/k' } }))).toBe('optional');
    expect(passwordNeed(form({ transport: 'kubectl' }))).toBe('none');
  });
});

describe('saved targets in the form', () => {
  const saved: SavedTarget[] = [
    { key: 'k1', label: 'admin @ node1', target: { transport: 'winrm', url: 'http://node1:5985/wsman', user: 'admin' }, lastUsedAt: '', passwordRemembered: true },
    { key: 'k2', label: 'n2', target: { transport: 'ssh', host: 'n2', user: 'u', port: 2222 }, lastUsedAt: '', passwordRemembered: false },
  ];
  it('formFromTarget round-trips through targetFromForm', () => {
    for (const s of saved) expect(targetFromForm(formFromTarget(s.target)).target).toMatchObject(s.target);
  });
  it('matchingSaved finds the entry the form describes, however the host was typed', () => {
    expect(matchingSaved(form({ winrm: { url: 'NODE1', user: 'Admin' } }), saved)?.key).toBe('k1');
    expect(matchingSaved(form({ winrm: { url: 'node2', user: 'admin' } }), saved)).toBeUndefined();
    expect(matchingSaved(form({ transport: 'ssh', ssh: { host: 'n2', user: 'u', port: '2222' } }), saved)?.key).toBe('k2');
  });
});

function job(over: Partial<CollectJob>): CollectJob {
  return { jobId: 'collect-1', state: 'running', transport: 'winrm', target: 'http://node1:5985/wsman', outDir: '/d/collections/node1-20260101-000000', startedAt: '', total: 16, commands: [], bytes: 0, ...over };
}
const cmd = (id: string, status: CollectJob['commands'][number]['status'], bytes = 10, error?: string) => ({ id, file: `${id}.txt`, title: id, status, bytes, durationMs: 1, ...(error ? { error } : {}) });

describe('progress and result lines', () => {
  it('connecting, running with the current command, finished', () => {
    expect(progressOf(job({ state: 'connecting', total: 0 }))).toEqual({ fraction: 0, line: 'Connecting to http://node1:5985/wsman…' });
    const p = progressOf(job({ commands: [cmd('a', 'ok', 1500)], bytes: 4000, current: { id: 'b', file: 'b.txt', title: 'HNS networks', index: 1, bytes: 2500 } }));
    expect(p.line).toBe('Command 2 of 16 · 3.9 KiB so far');
    expect(p.file).toBe('b.txt (2.4 KiB) — HNS networks');
    expect(p.fraction).toBeCloseTo(1.5 / 16);
    expect(progressOf(job({ state: 'done', commands: Array.from({ length: 16 }, (_, i) => cmd(`c${i}`, 'ok')), bytes: 160 })).fraction).toBe(1);
  });
  it('lists the commands that did not complete; open only when something was collected', () => {
    const j = job({ state: 'partial', commands: [cmd('a', 'ok'), cmd('hnsdiag', 'failed', 0, 'exit code 1'), cmd('c', 'partial', 5, 'timed out')] });
    expect(problemCommands(j).map((c) => c.id)).toEqual(['hnsdiag', 'c']);
    expect(resultTitle(j)).toMatch(/some files missing/);
    expect(canOpen(j)).toBe(true);
    expect(canOpen(job({ state: 'failed' }))).toBe(false);
    expect(canOpen(job({ state: 'cancelled', commands: [cmd('a', 'ok')] }))).toBe(true);
    expect(canOpen(job({ state: 'cancelled', commands: [cmd('a', 'cancelled', 0)] }))).toBe(false);
  });
});

describe('the collect store', () => {
  /** The first state is what getCollectJob answers; the others arrive as 'collect' events, in order. */
  function fakeDeps(states: CollectJob[], saved: SavedTarget[] = []) {
    const events = fakeEvents();
    const deps = {
      emit: events.emit,
      api: {
        subscribe: vi.fn((l: (e: ApiEvent) => void) => {
          const off = events.subscribe(l);
          setTimeout(() => {
            for (const st of states.slice(1)) events.emit({ type: 'collect', job: st });
          }, 0);
          return off;
        }),
        startCollect: vi.fn(async () => ({ jobId: 'collect-1' })),
        getCollectJob: vi.fn(async () => states[0]),
        cancelCollect: vi.fn(async () => ({ ok: true as const })),
        listSavedTargets: vi.fn(async () => saved),
        forgetTarget: vi.fn(async () => ({ ok: true as const })),
        pickCredentialFile: vi.fn(async (): Promise<{ path: string } | null> => null),
      },
      openBundle: vi.fn(async () => undefined),
      toast: vi.fn(),
    } satisfies CollectDeps & { emit: unknown };
    return deps;
  }

  it('sends the password to startCollect only, follows the job to done, closes and opens the bundle', async () => {
    const done = job({ state: 'done', commands: Array.from({ length: 16 }, (_, k) => cmd(`c${k}`, 'ok')) });
    const deps = fakeDeps([job({ state: 'connecting' }), job({ current: { id: 'a', file: 'a.txt', title: 'a', index: 0, bytes: 0 } }), done]);
    const store = createCollectStore(deps);
    store.getState().openDialog();
    store.getState().setForm((f) => ({ ...f, winrm: { ...f.winrm, url: 'node1', user: 'admin' } }));
    const seen: string[] = [];
    store.subscribe((s) => seen.push(JSON.stringify({ ...s, saved: s.saved })));
    await store.getState().start(PASSWORD);
    expect(deps.api.startCollect).toHaveBeenCalledWith({ target: { transport: 'winrm', url: 'http://node1:5985/wsman', user: 'admin', auth: 'ntlm' }, password: PASSWORD });
    expect(store.getState().job?.state).toBe('done');
    expect(store.getState().open).toBe(false);
    expect(deps.openBundle).toHaveBeenCalledWith(done.outDir);
    expect(deps.toast).toHaveBeenCalledWith('success', expect.stringContaining('Collected 16 files'));
    for (const s of seen) expect(s).not.toContain(PASSWORD);
  });

  it('partial: opens the bundle and keeps the dialog with the list; failed: nothing opened', async () => {
    const partial = job({ state: 'partial', commands: [cmd('a', 'ok'), cmd('b', 'failed', 0, 'exit code 1')] });
    const deps = fakeDeps([partial]);
    const store = createCollectStore(deps);
    store.getState().openDialog();
    store.getState().setForm((f) => ({ ...f, winrm: { ...f.winrm, url: 'node1', user: 'admin' } }));
    await store.getState().start(PASSWORD);
    expect(store.getState().open).toBe(true);
    expect(store.getState().opened).toBe(true);
    expect(deps.openBundle).toHaveBeenCalledOnce();

    const deps2 = fakeDeps([job({ state: 'failed', error: 'http://node1:5985/wsman refused the user name or password' })]);
    const s2 = createCollectStore(deps2);
    s2.getState().setForm((f) => ({ ...f, winrm: { ...f.winrm, url: 'node1', user: 'admin' } }));
    await s2.getState().start('wrong');
    expect(s2.getState().job?.state).toBe('failed');
    expect(deps2.openBundle).not.toHaveBeenCalled();
    s2.getState().again();
    expect(s2.getState().job).toBeUndefined();
  });

  it('asks for the missing fields and the password before calling the backend', async () => {
    const deps = fakeDeps([]);
    const store = createCollectStore(deps);
    await store.getState().start('');
    expect(Object.keys(store.getState().fieldErrors)).toEqual(['url', 'user']);
    store.getState().setForm((f) => ({ ...f, winrm: { ...f.winrm, url: 'node1', user: 'admin' } }));
    await store.getState().start('');
    expect(store.getState().fieldErrors).toHaveProperty('password');
    expect(deps.api.startCollect).not.toHaveBeenCalled();
  });

  it('a remembered password: no password needed; unticking remember sends remember=false', async () => {
    const saved: SavedTarget[] = [{ key: 'k1', label: 'l', target: { transport: 'winrm', url: 'http://node1:5985/wsman', user: 'admin', auth: 'ntlm' }, lastUsedAt: '', passwordRemembered: true }];
    const deps = fakeDeps([job({ state: 'done' })], saved);
    const store = createCollectStore(deps);
    await store.getState().loadSaved();
    store.getState().useSaved('k1');
    expect(store.getState().remember).toBe(true);
    await store.getState().start('');
    expect(deps.api.startCollect).toHaveBeenLastCalledWith({ target: saved[0].target, remember: true });
    store.getState().setRemember(false);
    await store.getState().start('');
    expect(deps.api.startCollect).toHaveBeenLastCalledWith({ target: saved[0].target, remember: false });
  });

  it('cancel calls cancelCollect for the running job; a start error is shown', async () => {
    const deps = fakeDeps([job({ state: 'running' })]);
    const store = createCollectStore(deps);
    store.getState().setForm((f) => ({ ...f, winrm: { ...f.winrm, url: 'node1', user: 'admin' } }));
    const p = store.getState().start(PASSWORD);
    await vi.waitFor(() => expect(store.getState().job?.state).toBe('running'));
    await store.getState().cancel();
    expect(deps.api.cancelCollect).toHaveBeenCalledWith({ jobId: 'collect-1' });
    store.getState().again();
    // The backend reports the end of the job; the store, gone back to its form, ignores it.
    deps.emit({ type: 'collect', job: job({ state: 'cancelled' }) });
    await p;
    expect(store.getState().job).toBeUndefined();

    deps.api.startCollect.mockRejectedValueOnce(new Error('cannot remember the password: remembering passwords needs the desktop app'));
    store.getState().setRemember(true);
    await store.getState().start(PASSWORD);
    expect(store.getState().startError).toMatch(/needs the desktop app/);
  });
});
