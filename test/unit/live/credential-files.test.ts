// Issue 15 audit: startCollect with a kubeconfig at any path ran its `exec` credential plugin as the
// user (the repro ran `touch`). A kubeconfig, key or known-hosts file is read only from the default
// locations (~/.kube/config, $KUBECONFIG, ~/.ssh/*), a native open dialog's answer, or a folder given
// to `hnsight serve --allow`; a kubeconfig from such a folder may not run a command. Checked through
// the backend's dispatch and through a real `serve` server.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Backend, type Dialogs } from '../../../services/backend/backend.ts';
import { Grants } from '../../../services/backend/grants.ts';
import { startServer, type RunningServer } from '../../../services/server/server.ts';
import { KubectlShell, commandRunningUser } from '../../../services/live/kubectl.ts';
import type { CollectJob, Envelope } from '../../../contract/index.ts';

const repo = path.resolve(import.meta.dirname, '../../..');
const DEMO = path.join(repo, 'assets/demo/l2bridge-node');

let tmp: string;
let home: string;
const savedHome = process.env.HOME;
const savedKube = process.env.KUBECONFIG;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'hnsight-cred-'));
  home = path.join(tmp, 'home');
  mkdirSync(path.join(home, '.kube'), { recursive: true });
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  process.env.HOME = home;
  delete process.env.KUBECONFIG;
});
afterAll(() => {
  if (savedHome === undefined) delete process.env.HOME; else process.env.HOME = savedHome;
  if (savedKube !== undefined) process.env.KUBECONFIG = savedKube;
  rmSync(tmp, { recursive: true, force: true });
});

/** A kubeconfig whose user's exec plugin touches `marker` (the auditor's repro); the API server is a closed port. */
function evilKubeconfig(file: string, marker: string, kind: 'exec' | 'auth-provider' = 'exec'): void {
  const user = kind === 'exec'
    ? `    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: /usr/bin/touch\n      args: ["${marker}"]\n`
    : `    auth-provider:\n      name: gcp\n      config:\n        cmd-path: /usr/bin/touch\n        cmd-args: "${marker}"\n`;
  writeFileSync(file, `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\nusers:\n- name: u\n  user:\n${user}`);
}

async function finished(b: Backend, jobId: string): Promise<CollectJob> {
  for (;;) {
    const j = (await b.invoke('getCollectJob', { jobId })) as CollectJob;
    if (!['connecting', 'running'].includes(j.state)) return j;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('credential files through the backend dispatch', () => {
  const backends: Backend[] = [];
  afterEach(() => void backends.splice(0));
  const backend = (o: { allowedRoots?: string[] } = {}) => {
    const b = new Backend({ mode: 'browser', dataDir: path.join(tmp, `data-${backends.length}`), ...o });
    backends.push(b);
    return b;
  };

  it('refuses a kubeconfig at any other path before it is read: its exec plugin never runs', async () => {
    const b = backend();
    const marker = path.join(tmp, 'pwned-any');
    const kc = path.join(tmp, 'anywhere.yaml');
    evilKubeconfig(kc, marker);
    const r = await b.call('startCollect', { target: { transport: 'kubectl', node: 'akswin000000', kubeconfig: kc } });
    expect(r).toEqual({ ok: false, kind: 'refused', error: expect.stringMatching(/^refused: .*anywhere\.yaml is not a kubeconfig, key or known-hosts file you chose — hnsight uses ~\/\.kube\/config/) });
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses one in a closed bundle of the recent list, and keys or known-hosts files at other paths', async () => {
    const b = backend();
    const bundle = path.join(tmp, 'closed-bundle');
    mkdirSync(bundle);
    writeFileSync(path.join(bundle, 'ip.txt'), readFileSync(path.join(DEMO, 'ip.txt')));
    evilKubeconfig(path.join(bundle, 'kubeconfig'), path.join(tmp, 'pwned-closed'));
    b.allowOpen(bundle);
    const job = await b.waitForLoad(((await b.invoke('openBundle', { path: bundle })) as { jobId: string }).jobId);
    await b.invoke('closeBundle', { bundleId: job.summary!.id });
    for (const target of [
      { transport: 'kubectl', node: 'n', kubeconfig: path.join(bundle, 'kubeconfig') },
      { transport: 'ssh', host: '127.0.0.1', user: 'u', privateKeyFile: path.join(bundle, 'ip.txt') },
      { transport: 'ssh', host: '127.0.0.1', user: 'u', knownHostsFile: '/etc/passwd', acceptNewHostKey: true },
    ]) {
      expect(await b.call('startCollect', { target, password: 'pw-9' })).toMatchObject({ ok: false, kind: 'refused', error: expect.stringContaining('is not a kubeconfig, key or known-hosts file you chose') });
    }
    expect(existsSync(path.join(tmp, 'pwned-closed'))).toBe(false);
  });

  it('reads a kubeconfig under a folder given to --allow, but runs none of its commands', async () => {
    const allowed = path.join(tmp, 'allowed');
    mkdirSync(allowed);
    for (const kind of ['exec', 'auth-provider'] as const) {
      const b = backend({ allowedRoots: [allowed] });
      const marker = path.join(tmp, `pwned-allowed-${kind}`);
      const kc = path.join(allowed, `${kind}.yaml`);
      evilKubeconfig(kc, marker, kind);
      const { jobId } = (await b.invoke('startCollect', { target: { transport: 'kubectl', node: 'akswin000000', kubeconfig: kc } })) as { jobId: string };
      const end = await finished(b, jobId);
      expect(end.state).toBe('failed');
      expect(end.error).toMatch(kind === 'exec' ? /runs an exec credential plugin; hnsight runs no command from such a file/ : /has an auth provider that runs a command/);
      expect(existsSync(marker)).toBe(false);
    }
  });

  it('uses ~/.kube/config and files in ~/.ssh (the default locations)', async () => {
    const b = backend();
    const kc = path.join(home, '.kube', 'config');
    writeFileSync(kc, 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\nusers:\n- name: u\n  user:\n    token: t\n');
    const { jobId } = (await b.invoke('startCollect', { target: { transport: 'kubectl', node: 'akswin000000', kubeconfig: kc } })) as { jobId: string };
    const end = await finished(b, jobId);
    // Accepted: it got as far as the (closed) API server.
    expect(end.state).toBe('failed');
    expect(end.error).toMatch(/read node akswin000000 failed|cannot reach the Kubernetes API server/);
    writeFileSync(path.join(home, '.ssh', 'known_hosts'), '');
    const ssh = await b.call('startCollect', { target: { transport: 'ssh', host: '127.0.0.1', port: 1, user: 'u', knownHostsFile: path.join(home, '.ssh', 'known_hosts') }, password: 'pw-9' });
    expect(ssh).toMatchObject({ ok: true });
    await finished(b, (ssh as { value: { jobId: string } }).value.jobId);
  });
});

describe("pickCredentialFile: a file chosen in the desktop app's open dialog", () => {
  const kubeconfigWithToken = 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\nusers:\n- name: u\n  user:\n    token: t\n';
  function desktop(answer: () => string | null) {
    const asked: unknown[] = [];
    const dialogs: Dialogs = {
      pickBundle: async () => null,
      pickSavePath: async () => null,
      pickCredentialFile: async (req) => {
        asked.push(req);
        const a = answer();
        return a ? { path: a } : null;
      },
    };
    const logged: string[] = [];
    const b = new Backend({ mode: 'electron', dataDir: path.join(tmp, `desktop-${Math.random().toString(36).slice(2)}`), dialogs, log: (m) => logged.push(m) });
    return { b, asked, logged };
  }

  it("refused before the pick, accepted after it: the dialog's answer and nothing else", async () => {
    const dir = path.join(tmp, 'picked');
    mkdirSync(dir, { recursive: true });
    const kc = path.join(dir, 'prod.kubeconfig');
    const other = path.join(dir, 'other.kubeconfig');
    writeFileSync(kc, kubeconfigWithToken);
    writeFileSync(other, kubeconfigWithToken);
    let answer: string | null = null;
    const { b, asked } = desktop(() => answer);
    const target = (kubeconfig: string) => ({ target: { transport: 'kubectl', node: 'akswin000000', kubeconfig } });
    expect(await b.call('startCollect', target(kc))).toMatchObject({ ok: false, kind: 'refused', error: expect.stringContaining('is not a kubeconfig, key or known-hosts file you chose') });
    // Cancelled: null, and still refused.
    expect(await b.call('pickCredentialFile', { kind: 'kubeconfig' })).toEqual({ ok: true, value: null });
    expect(await b.call('startCollect', target(kc))).toMatchObject({ ok: false, kind: 'refused' });
    // The page cannot name the file itself: the request has only the kind.
    expect(await b.call('pickCredentialFile', { kind: 'kubeconfig', path: kc })).toMatchObject({ ok: false, kind: 'invalid' });
    answer = kc;
    expect(await b.call('pickCredentialFile', { kind: 'kubeconfig' })).toEqual({ ok: true, value: { path: kc } });
    expect(asked).toEqual([{ kind: 'kubeconfig' }, { kind: 'kubeconfig' }]);
    const r = await b.call('startCollect', target(kc));
    expect(r).toMatchObject({ ok: true });
    const end = await finished(b, (r as { value: { jobId: string } }).value.jobId);
    // Accepted: it got as far as the (closed) API server.
    expect(end.error).toMatch(/read node akswin000000 failed|cannot reach the Kubernetes API server/);
    // Its neighbour was not chosen.
    expect(await b.call('startCollect', target(other))).toMatchObject({ ok: false, kind: 'refused' });
  });

  it('a key and a known_hosts file picked so are read; a kubeconfig picked so may run its exec plugin', async () => {
    const dir = path.join(tmp, 'picked-ssh');
    mkdirSync(dir, { recursive: true });
    const key = path.join(dir, 'id_test');
    const kh = path.join(dir, 'kh');
    writeFileSync(key, 'KEY-CONTENTS-7f3a');
    writeFileSync(kh, '');
    let answer = key;
    const { b, logged } = desktop(() => answer);
    expect(await b.call('pickCredentialFile', { kind: 'identity' })).toEqual({ ok: true, value: { path: key } });
    answer = kh;
    expect(await b.call('pickCredentialFile', { kind: 'known-hosts' })).toEqual({ ok: true, value: { path: kh } });
    const ssh = await b.call('startCollect', { target: { transport: 'ssh', host: '127.0.0.1', port: 1, user: 'u', privateKeyFile: key, knownHostsFile: kh } });
    expect(ssh).toMatchObject({ ok: true });
    await finished(b, (ssh as { value: { jobId: string } }).value.jobId);

    const marker = path.join(tmp, 'ran-chosen-exec');
    const kc = path.join(dir, 'exec.yaml');
    evilKubeconfig(kc, marker);
    answer = kc;
    await b.call('pickCredentialFile', { kind: 'kubeconfig' });
    const r = await b.call('startCollect', { target: { transport: 'kubectl', node: 'akswin000000', kubeconfig: kc } });
    expect(r).toMatchObject({ ok: true });
    const end = await finished(b, (r as { value: { jobId: string } }).value.jobId);
    expect(end.error ?? '').not.toMatch(/hnsight runs no command from such a file/);
    expect(existsSync(marker)).toBe(true);
    // Neither the key nor the kubeconfig's contents reach the log.
    expect(logged.join('\n')).not.toMatch(/KEY-CONTENTS-7f3a|touch/);
  });

  it('a file of an open bundle is refused even when picked', async () => {
    const bundle = path.join(tmp, 'picked-bundle');
    mkdirSync(bundle, { recursive: true });
    writeFileSync(path.join(bundle, 'ip.txt'), readFileSync(path.join(DEMO, 'ip.txt')));
    const marker = path.join(tmp, 'pwned-picked-bundle');
    evilKubeconfig(path.join(bundle, 'kubeconfig'), marker);
    const { b } = desktop(() => path.join(bundle, 'kubeconfig'));
    b.allowOpen(bundle);
    await b.waitForLoad(((await b.invoke('openBundle', { path: bundle })) as { jobId: string }).jobId);
    await b.call('pickCredentialFile', { kind: 'kubeconfig' });
    expect(await b.call('startCollect', { target: { transport: 'kubectl', node: 'n', kubeconfig: path.join(bundle, 'kubeconfig') } })).toMatchObject({ ok: false, kind: 'refused', error: expect.stringContaining('came from an upload or a bundle') });
    expect(existsSync(marker)).toBe(false);
  });

  it('browser mode has no native dialog: refused, in words that name the default locations and --allow', async () => {
    const b = new Backend({ mode: 'browser', dataDir: path.join(tmp, 'browser-pick') });
    expect(await b.call('pickCredentialFile', { kind: 'kubeconfig' })).toEqual({ ok: false, kind: 'refused', error: expect.stringMatching(/^refused: the browser has no native open dialog — .*~\/\.kube\/config.*~\/\.ssh.*hnsight serve --allow DIR/) });
  });
});

describe('credential files through serve (token holder)', () => {
  const TOKEN = 'credential-token-0123456789';
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ backend: new Backend({ mode: 'browser', dataDir: path.join(tmp, 'serve-data') }), staticDir: tmp, token: TOKEN });
  });
  afterAll(() => server.close());
  const api = (method: string, body: unknown) =>
    new Promise<{ status: number; env: Envelope }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, path: `/api/${method}`, method: 'POST', headers: { 'X-Hnsight-Token': TOKEN, 'Content-Type': 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, env: JSON.parse(Buffer.concat(chunks).toString()) as Envelope }));
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });

  it('startCollect with kubeconfig=<any path>: 403, and the exec plugin does not run', async () => {
    const marker = path.join(tmp, 'pwned-serve');
    const kc = path.join(tmp, 'serve-kubeconfig');
    evilKubeconfig(kc, marker);
    const r = await api('startCollect', { target: { transport: 'kubectl', node: 'akswin000000', kubeconfig: kc } });
    expect(r.status).toBe(403);
    expect(r.env).toMatchObject({ ok: false, kind: 'refused', error: expect.stringContaining('or one under a folder given to hnsight serve --allow') });
    expect(existsSync(marker)).toBe(false);
  });

  it('pickCredentialFile: 403, browser mode has no open dialog', async () => {
    const r = await api('pickCredentialFile', { kind: 'identity' });
    expect(r.status).toBe(403);
    expect(r.env).toMatchObject({ ok: false, kind: 'refused', error: expect.stringContaining('hnsight serve --allow DIR') });
  });
});

describe('the pieces', () => {
  it('Grants.credentialSource: default, chosen, allowed, or not at all', async () => {
    const allowed = path.join(tmp, 'g-allowed');
    mkdirSync(allowed, { recursive: true });
    const g = new Grants([allowed]);
    expect(await g.credentialSource(path.join(home, '.kube', 'config'), home)).toBe('default');
    expect(await g.credentialSource(path.join(home, '.ssh', 'id_ed25519'), home)).toBe('default');
    expect(await g.credentialSource(path.join(home, '.ssh', 'sub', 'id'), home)).toBeNull();
    // A default file linked elsewhere (dotfiles) is still the default; a path that climbs out is not.
    writeFileSync(path.join(tmp, 'dotfiles-config'), '');
    symlinkSync(path.join(tmp, 'dotfiles-config'), path.join(home, '.ssh', 'config'));
    expect(await g.credentialSource(path.join(home, '.ssh', 'config'), home)).toBe('default');
    expect(await g.credentialSource(path.join(home, '.ssh', '..', '..', 'anywhere.yaml'), home)).toBeNull();
    expect(await g.credentialSource(path.join(allowed, 'k.yaml'), home)).toBe('allowed');
    expect(await g.credentialSource('/etc/passwd', home)).toBeNull();
    g.allowCredential('/etc/passwd');
    expect(await g.credentialSource('/etc/passwd', home)).toBe('chosen');
  });

  it('KubectlShell with mayRunCommands false refuses before connecting; commandRunningUser names the user', async () => {
    const marker = path.join(tmp, 'pwned-shell');
    const kc = path.join(tmp, 'shell.yaml');
    evilKubeconfig(kc, marker);
    await expect(new KubectlShell({ node: 'n', kubeconfig: kc, mayRunCommands: false }).open()).rejects.toMatchObject({ kind: 'refused', message: expect.stringContaining('user "u" runs an exec credential plugin') });
    expect(existsSync(marker)).toBe(false);
    expect(commandRunningUser([{ name: 'a' }, { name: 'b', authProvider: { name: 'oidc', config: { 'id-token': 'x' } } }])).toBeUndefined();
  });
});
