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
import { Backend } from '../../../services/backend/backend.ts';
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
