// Connect to node… through the API contract: the backend collects over WinRM from the in-repo test
// server, reports progress through getCollectJob, cancels, and the result opens like a CollectLogs
// bundle. The password never leaves: not in a reply, an error (validation, wrong password, IPC), a
// log line, the collected files, the saved targets or the secret store's file (ciphertext only).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startWinRmTestServer } from '../../../tools/winrm-test-server.ts';
import { Backend, type SecretStore } from '../../../services/backend/backend.ts';
import { createDispatcher, type Handlers } from '../../../services/backend/dispatch.ts';
import { newCollectionDir, targetKey } from '../../../services/live/saved-targets.ts';
import { ApiError, type CollectJob, type LoadJob, type SavedTarget } from '../../../contract/index.ts';
import { handleIpc } from '../../../electron/main/ipc-handler.ts';
import { SafeStorageSecretStore, SECRETS_FILE, type SafeStorageLike } from '../../../electron/main/secret-store.ts';
import { startServer } from '../../../services/server/server.ts';
import { MANIFEST_FILE } from '../../../services/live/collector.ts';
import { COLLECT_COMMANDS } from '../../../services/live/collect-commands.ts';

const repo = path.resolve(__dirname, '../../..');
const DEMO = path.join(repo, 'assets/demo/l2bridge-node');
const PASSWORD = 'Conn3ct-Dialog!pw';
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function tmp(): Promise<string> {
  const d = await fs.mkdtemp(path.join(os.tmpdir(), 'hnsight-connect-'));
  cleanup.push(() => fs.rm(d, { recursive: true, force: true }));
  return d;
}
async function server(inject: Parameters<typeof startWinRmTestServer>[0]['inject'] = {}) {
  const s = await startWinRmTestServer({ port: 0, user: 'hnsight', password: PASSWORD, fixtures: DEMO, inject });
  cleanup.push(s.close);
  return s;
}
async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await allFiles(p)));
    else out.push(p);
  }
  return out;
}
/** The password in every encoding it could leak in: UTF-8, UTF-16LE, base64 of either. */
function secretForms(pw: string): Buffer[] {
  const u8 = Buffer.from(pw, 'utf8');
  const u16 = Buffer.from(pw, 'utf16le');
  return [u8, u16, Buffer.from(u8.toString('base64').replace(/=+$/, '')), Buffer.from(u16.toString('base64').replace(/=+$/, ''))];
}
async function expectNoSecret(dirs: string[], texts: string[], pw = PASSWORD) {
  const forms = secretForms(pw);
  for (const dir of dirs)
    for (const f of await allFiles(dir)) {
      const b = await fs.readFile(f);
      for (const s of forms) expect(b.includes(s), `${f} contains the password`).toBe(false);
    }
  for (const t of texts) for (const s of forms) expect(Buffer.from(t).includes(s), `"${t.slice(0, 200)}" contains the password`).toBe(false);
}
async function pollCollect(b: Backend, jobId: string, seen: CollectJob[] = []): Promise<CollectJob> {
  for (let i = 0; i < 3000; i++) {
    const s = (await b.invoke('getCollectJob', { jobId })) as CollectJob;
    seen.push(s);
    if (!['connecting', 'running'].includes(s.state)) return s;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the collection did not finish');
}
const winrm = (url: string, user = 'hnsight') => ({ transport: 'winrm' as const, url, user });
async function counts(b: Backend, p: string) {
  const { jobId } = (await b.invoke('openBundle', { path: p })) as { jobId: string };
  const j: LoadJob = await b.waitForLoad(jobId);
  expect(j.state, j.error).toBe('done');
  return j.summary!.counts;
}

/** A fake OS encryption: reversible, and never the plaintext (nor its base64) on disk. */
function fakeSafeStorage(available = true, backend = 'gnome_libsecret'): SafeStorageLike & { encrypted: number } {
  const key = 0x5a;
  const f = {
    encrypted: 0,
    isEncryptionAvailable: () => available,
    encryptString: (s: string) => {
      f.encrypted++;
      return Buffer.concat([Buffer.from('v10'), Buffer.from(Buffer.from(s, 'utf8').map((c) => c ^ key))]);
    },
    decryptString: (b: Buffer) => {
      if (b.subarray(0, 3).toString() !== 'v10') throw new Error('not ours');
      return Buffer.from(b.subarray(3).map((c) => c ^ key)).toString('utf8');
    },
    getSelectedStorageBackend: () => backend,
  };
  return f;
}

describe('startCollect / getCollectJob over WinRM (browser mode)', () => {
  it('collects with progress into collections/<host>-<stamp>, and the result opens with the same counts as the fixture', async () => {
    const s = await server({ chunkSize: 32 * 1024 });
    const data = await tmp();
    const log = vi.fn();
    const b = new Backend({ mode: 'browser', dataDir: data });
    expect((await b.invoke('info', {})).liveCollection).toBe(true);
    const { jobId } = (await b.invoke('startCollect', { target: winrm(s.url), password: PASSWORD })) as { jobId: string };
    const seen: CollectJob[] = [];
    const end = await pollCollect(b, jobId, seen);
    expect(end.state, end.error).toBe('done');
    expect(end.manifest?.status).toBe('complete');
    expect(end.total).toBe(COLLECT_COMMANDS.length);
    expect(end.commands).toHaveLength(COLLECT_COMMANDS.length);
    expect(end.bytes).toBeGreaterThan(100_000);
    // Progress was visible on the way: a running command with its index of the total.
    expect(seen.some((x) => x.state === 'running' && x.current && x.current.index >= 0 && x.total === COLLECT_COMMANDS.length)).toBe(true);
    expect(path.dirname(end.outDir)).toBe(path.join(data, 'collections'));
    expect(path.basename(end.outDir)).toMatch(/^127\.0\.0\.1-\d{8}-\d{6}$/);
    expect(JSON.parse(await fs.readFile(path.join(end.outDir, MANIFEST_FILE), 'utf8')).status).toBe('complete');
    // The collected folder is the user's to open (the collection granted it); the fixture is chosen here.
    b.allowOpen(DEMO);
    expect(await counts(b, end.outDir)).toEqual(await counts(b, DEMO));

    // The target is saved for next time, with no secret; browser mode remembers no password.
    const saved = (await b.invoke('listSavedTargets', {})) as SavedTarget[];
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ key: targetKey(winrm(s.url)), target: winrm(s.url), passwordRemembered: false });
    await expectNoSecret([data], [JSON.stringify(seen), JSON.stringify(saved), JSON.stringify(await b.invoke('info', {})), ...log.mock.calls.flat().map(String)]);

    await b.invoke('forgetTarget', { key: saved[0].key });
    expect(await b.invoke('listSavedTargets', {})).toEqual([]);
  });

  it('cancel stops the collection: state cancelled, what was written is kept and marked', async () => {
    const s = await server({ chunkSize: 2 * 1024, timeouts: 1 });
    const data = await tmp();
    const b = new Backend({ mode: 'browser', dataDir: data });
    const { jobId } = (await b.invoke('startCollect', { target: winrm(s.url), password: PASSWORD })) as { jobId: string };
    for (;;) {
      const st = (await b.invoke('getCollectJob', { jobId })) as CollectJob;
      if (st.state === 'running' && st.commands.length >= 1) break;
      expect(['connecting', 'running']).toContain(st.state);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await b.invoke('cancelCollect', { jobId })).toEqual({ ok: true });
    const end = await pollCollect(b, jobId);
    expect(end.state).toBe('cancelled');
    expect(end.manifest?.commands.some((c) => c.status === 'cancelled')).toBe(true);
    expect(end.commands.length).toBe(COLLECT_COMMANDS.length);
    const m = JSON.parse(await fs.readFile(path.join(end.outDir, MANIFEST_FILE), 'utf8'));
    expect(m.status).toBe('cancelled');
    await expect(b.invoke('cancelCollect', { jobId: 'collect-999' })).rejects.toThrow(ApiError);
  });

  it('a wrong password: failed, a clear message without the password, no empty folder left behind', async () => {
    const s = await server();
    const data = await tmp();
    const b = new Backend({ mode: 'browser', dataDir: data });
    const wrong = 'n0t-' + PASSWORD;
    const { jobId } = (await b.invoke('startCollect', { target: winrm(s.url), password: wrong })) as { jobId: string };
    const end = await pollCollect(b, jobId);
    expect(end.state).toBe('failed');
    expect(end.error).toMatch(/refused the user name or password/);
    await expect(fs.stat(end.outDir)).rejects.toThrow();
    expect(await b.invoke('listSavedTargets', {})).toEqual([]);
    await expectNoSecret([data], [JSON.stringify(end)], wrong);
  });

  it('an output folder that is not empty is refused (collection never overwrites evidence)', async () => {
    const s = await server();
    const out = await tmp();
    await fs.writeFile(path.join(out, 'keep.txt'), 'x');
    // An output folder of the user's own: under a folder allowed on the command line (hnsight serve --allow).
    const b = new Backend({ mode: 'browser', dataDir: await tmp(), allowedRoots: [out] });
    const { jobId } = (await b.invoke('startCollect', { target: winrm(s.url), password: PASSWORD, outDir: out })) as { jobId: string };
    const end = await pollCollect(b, jobId);
    expect(end.state).toBe('failed');
    expect(end.error).toMatch(/not empty/);
    expect(await fs.readdir(out)).toEqual(['keep.txt']);
  });

  it('an output folder the user did not allow is refused before anything is written', async () => {
    const out = await tmp();
    const b = new Backend({ mode: 'browser', dataDir: await tmp() });
    const err = await b.invoke('startCollect', { target: winrm('http://127.0.0.1:1'), password: PASSWORD, outDir: path.join(out, 'x') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe('refused');
    expect((err as Error).message).toMatch(/is not under a folder you allowed/);
    expect(await fs.readdir(out)).toEqual([]);
  });

  it('remember=true is refused in browser mode, without the password in the message', async () => {
    const b = new Backend({ mode: 'browser', dataDir: await tmp() });
    expect((await b.invoke('info', {})).rememberPasswords).toEqual({ available: false, reason: 'remembering passwords needs the desktop app' });
    const err = await b.invoke('startCollect', { target: winrm('http://127.0.0.1:1'), password: PASSWORD, remember: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toBe('cannot remember the password: remembering passwords needs the desktop app');
    await expectNoSecret([], [(err as Error).message, (err as Error).stack ?? '']);
  });

  it('WinRM without a password, SSH without password or key: refused before connecting', async () => {
    const b = new Backend({ mode: 'browser', dataDir: await tmp() });
    await expect(b.invoke('startCollect', { target: winrm('http://127.0.0.1:1') })).rejects.toThrow('WinRM needs a password');
    await expect(b.invoke('startCollect', { target: { transport: 'ssh', host: 'node1', user: 'admin' } })).rejects.toThrow(/SSH needs a password or a private key/);
  });
});

describe('validation never echoes the password', () => {
  const bad: [string, unknown][] = [
    ['bad transport', { target: { transport: 'telnet', host: 'x' }, password: PASSWORD }],
    ['password as the URL', { target: winrm(PASSWORD), password: PASSWORD }],
    ['user:password in the URL', { target: winrm(`http://hnsight:${PASSWORD}@node1:5985/wsman`), password: PASSWORD }],
    ['password in an unknown key name', { target: winrm('http://node1:5985'), password: PASSWORD, [PASSWORD]: true }],
    ['password as the user', { target: { transport: 'winrm', url: 'http://node1:5985', user: `a b ${PASSWORD}` }, password: PASSWORD }],
    ['password too long', { target: winrm('http://node1:5985'), password: PASSWORD.repeat(100) }],
    ['unknown key in the target', { target: { ...winrm('http://node1:5985'), password: PASSWORD }, password: PASSWORD }],
  ];
  for (const [name, body] of bad) {
    it(`${name}: refused without the password, from the backend, IPC and HTTP`, async () => {
      const log = vi.fn();
      const b = new Backend({ mode: 'browser', dataDir: await tmp(), log });
      const reply = await b.call('startCollect', body);
      expect(reply).toMatchObject({ ok: false, kind: 'invalid', error: expect.stringMatching(/^bad arguments for startCollect/) });
      const index = pathToFileURL('/opt/hnsight/dist/renderer/index.html').href;
      const ipc = await handleIpc('startCollect', body, { url: index, isOurWindow: true, isMainFrame: true }, { backend: b, indexUrl: index });
      expect(ipc).toMatchObject({ ok: false, kind: 'invalid' });
      await expectNoSecret([], [JSON.stringify(reply), JSON.stringify(ipc), ...log.mock.calls.flat().map(String)]);
    });
  }

  it('the HTTP server answers 400 without the password', async () => {
    const b = new Backend({ mode: 'browser', dataDir: await tmp() });
    const srv = await startServer({ backend: b, staticDir: await tmp(), token: 'tok' });
    cleanup.push(srv.close);
    const res = await fetch(`http://127.0.0.1:${srv.port}/api/startCollect`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-hnsight-token': 'tok' },
      body: JSON.stringify({ target: winrm(`http://u:${PASSWORD}@node1`), password: PASSWORD, [PASSWORD]: 1 }),
    });
    expect(res.status).toBe(400);
    await expectNoSecret([], [await res.text()]);
  });

  it('an unexpected backend error that quotes the password is withheld from the IPC reply and the log', async () => {
    const log = vi.fn();
    const index = pathToFileURL('/opt/hnsight/dist/renderer/index.html').href;
    const call = createDispatcher({ startCollect: async () => { throw new Error(`boom ${PASSWORD}`); } } as unknown as Handlers, { log });
    const r = await handleIpc('startCollect', { target: winrm('http://node1:5985'), password: PASSWORD }, { url: index, isOurWindow: true, isMainFrame: true }, { backend: { call }, indexUrl: index });
    expect(r).toEqual({ ok: false, kind: 'failed', error: 'startCollect failed (the message is withheld because it contained the password)' });
    expect(log).toHaveBeenCalledOnce();
    await expectNoSecret([], [JSON.stringify(r), ...log.mock.calls.flat().map(String)]);
  });
});

describe('remembering the password (desktop app, SecretStore)', () => {
  it('stores only what safeStorage returns after the password worked; reuses it; forgets it; no plaintext on disk', async () => {
    const s = await server();
    const data = await tmp();
    const safe = fakeSafeStorage();
    const store = SafeStorageSecretStore.inDir(data, safe, 'linux');
    const b = new Backend({ mode: 'electron', dataDir: data, secretStore: store });
    expect((await b.invoke('info', {})).rememberPasswords).toEqual({ available: true });
    const target = winrm(s.url);
    const { jobId } = (await b.invoke('startCollect', { target, password: PASSWORD, remember: true })) as { jobId: string };
    const end = await pollCollect(b, jobId);
    expect(end.state).toBe('done');
    await vi.waitFor(async () => expect(((await b.invoke('getCollectJob', { jobId })) as CollectJob).passwordRemembered).toBe(true));
    expect(safe.encrypted).toBe(1);
    const file = JSON.parse(await fs.readFile(path.join(data, SECRETS_FILE), 'utf8'));
    expect(Object.keys(file.secrets)).toEqual([targetKey(target)]);
    expect(file.secrets[targetKey(target)]).toBe(safe.encryptString(PASSWORD).toString('base64'));
    expect((await fs.stat(path.join(data, SECRETS_FILE))).mode & 0o077).toBe(0);
    const saved = (await b.invoke('listSavedTargets', {})) as SavedTarget[];
    expect(saved).toMatchObject([{ key: targetKey(target), passwordRemembered: true }]);

    // Next time no password is typed: the remembered one is used.
    const again = (await b.invoke('startCollect', { target })) as { jobId: string };
    expect((await pollCollect(b, again.jobId)).state).toBe('done');
    await expectNoSecret([data], [JSON.stringify(saved), JSON.stringify(await b.invoke('getCollectJob', { jobId }))]);

    // Forget the password only, then the target.
    await b.invoke('forgetTarget', { key: targetKey(target), passwordOnly: true });
    expect(await store.keys()).toEqual([]);
    expect(((await b.invoke('listSavedTargets', {})) as SavedTarget[])[0].passwordRemembered).toBe(false);
    await expect(b.invoke('startCollect', { target })).rejects.toThrow('WinRM needs a password');
  });

  it('a wrong password is not remembered; remember=false forgets a remembered one', async () => {
    const s = await server();
    const data = await tmp();
    const store = SafeStorageSecretStore.inDir(data, fakeSafeStorage(), 'linux');
    const b = new Backend({ mode: 'electron', dataDir: data, secretStore: store });
    const target = winrm(s.url);
    const bad = (await b.invoke('startCollect', { target, password: 'wrong-' + PASSWORD, remember: true })) as { jobId: string };
    expect((await pollCollect(b, bad.jobId)).state).toBe('failed');
    expect(await store.keys()).toEqual([]);
    await store.set(targetKey(target), PASSWORD);
    const ok = (await b.invoke('startCollect', { target, password: PASSWORD, remember: false })) as { jobId: string };
    expect((await pollCollect(b, ok.jobId)).state).toBe('done');
    expect(await store.keys()).toEqual([]);
  });

  it('a remembered password that no longer works says so', async () => {
    const s = await server();
    const data = await tmp();
    const store = SafeStorageSecretStore.inDir(data, fakeSafeStorage(), 'linux');
    const target = winrm(s.url);
    await store.set(targetKey(target), 'old-' + PASSWORD);
    const b = new Backend({ mode: 'electron', dataDir: data, secretStore: store });
    const j = (await b.invoke('startCollect', { target })) as { jobId: string };
    const end = await pollCollect(b, j.jobId);
    expect(end.state).toBe('failed');
    expect(end.error).toMatch(/remembered password was used/);
    await expectNoSecret([], [JSON.stringify(end)], 'old-' + PASSWORD);
  });

  it('no OS encryption (or Linux without a keychain): remembering is refused with a clear message, nothing written', async () => {
    for (const [safe, reason] of [
      [fakeSafeStorage(false), /keychain is not available/],
      [fakeSafeStorage(true, 'basic_text'), /no keychain \(GNOME Keyring or KWallet\)/],
    ] as const) {
      const data = await tmp();
      const store = SafeStorageSecretStore.inDir(data, safe, 'linux');
      const b = new Backend({ mode: 'electron', dataDir: data, secretStore: store });
      expect((await b.invoke('info', {})).rememberPasswords).toMatchObject({ available: false, reason: expect.stringMatching(reason) });
      await expect(b.invoke('startCollect', { target: winrm('http://127.0.0.1:1'), password: PASSWORD, remember: true })).rejects.toThrow(reason);
      await expect(store.set('k', PASSWORD)).rejects.toThrow(reason);
      expect(safe.encrypted).toBe(0);
      await expect(fs.stat(path.join(data, SECRETS_FILE))).rejects.toThrow();
    }
  });

  it('a secret that cannot be decrypted (another user, another keychain) counts as not remembered', async () => {
    const data = await tmp();
    await fs.writeFile(path.join(data, SECRETS_FILE), JSON.stringify({ version: 1, secrets: { k: Buffer.from('garbage').toString('base64') } }));
    const store = SafeStorageSecretStore.inDir(data, fakeSafeStorage(), 'linux');
    expect(await store.get('k')).toBeUndefined();
    expect(await store.keys()).toEqual(['k']);
    await store.delete('k');
    expect(await store.keys()).toEqual([]);
  });

  it('concurrent saves do not lose each other', async () => {
    const data = await tmp();
    const store: SecretStore = SafeStorageSecretStore.inDir(data, fakeSafeStorage(), 'linux');
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.set(`k${i}`, `secret-${i}`)));
    expect((await store.keys()).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `k${i}`).sort());
    expect(await store.get('k7')).toBe('secret-7');
  });
});

describe('helpers', () => {
  it('targetKey: same node and user → same key; another user, port or transport → another', () => {
    expect(targetKey(winrm('http://Node1:5985/wsman', 'DOM\\Admin'))).toBe(targetKey(winrm('http://node1:5985/wsman', 'dom\\admin')));
    expect(targetKey(winrm('http://node1:5985', 'a'))).not.toBe(targetKey(winrm('http://node1:5985', 'b')));
    expect(targetKey({ transport: 'ssh', host: 'n', user: 'u' })).toBe(targetKey({ transport: 'ssh', host: 'N', user: 'u', port: 22 }));
    expect(targetKey({ transport: 'ssh', host: 'n', user: 'u', port: 2222 })).not.toBe(targetKey({ transport: 'ssh', host: 'n', user: 'u' }));
    expect(targetKey({ transport: 'kubectl', node: 'akswin000001' })).toMatch(/^kubectl:/);
  });

  it('newCollectionDir: <host>-<yyyyMMdd-HHmmss>, a suffix when taken, unsafe characters replaced', async () => {
    const data = await tmp();
    const at = new Date(2026, 2, 4, 5, 6, 7);
    const a = await newCollectionDir(data, winrm('https://[fe80::1]:5986/wsman'), at);
    expect(path.basename(a)).toBe('fe80_1-20260304-050607');
    const b1 = await newCollectionDir(data, { transport: 'kubectl', node: 'akswin000001' }, at);
    const b2 = await newCollectionDir(data, { transport: 'kubectl', node: 'akswin000001' }, at);
    expect(path.basename(b1)).toBe('akswin000001-20260304-050607');
    expect(path.basename(b2)).toBe('akswin000001-20260304-050607-2');
  });
});
