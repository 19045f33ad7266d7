// The kubectl backend (@kubernetes/client-node) against a fake API server on 127.0.0.1 that replays the
// conversation in test/fixtures/live/kubectl-conversation.json: read node, create the HostProcess pod,
// poll it until Running, exec over WebSocket (v4.channel.k8s.io), delete the pod — also on failure.
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import https from 'node:https';
import { spawnSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import { KubectlShell } from '../../../services/live/kubectl.ts';
import { startLiveCollection } from '../../../services/live/service.ts';
import { answerFromFixtures, decodeFixture } from '../../../tools/winrm-test-server.ts';

const repo = path.resolve(__dirname, '../../..');
const DEMO = path.join(repo, 'assets/demo/l2bridge-node');
const conv = JSON.parse(readFileSync(path.join(repo, 'test/fixtures/live/kubectl-conversation.json'), 'utf8'));
const TOKEN = 'kube-Token-Not-To-Leak-123';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => { while (closers.length) await closers.pop()!(); });

interface Fake { url: string; kubeconfig: string; log: { method: string; path: string; body?: unknown; auth?: string }[] }

async function fakeApi(mode: { createForbidden?: boolean; imagePull?: boolean } = {}): Promise<Fake> {
  const log: Fake['log'] = [];
  const pods = new Map<string, { body: Record<string, unknown>; reads: number }>();
  let n = 0;
  const json = (res: http.ServerResponse, status: number, body: unknown) => { res.writeHead(status, { 'Content-Type': 'application/json' }); res.end(JSON.stringify(body)); };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hnsight-kube-'));
  const ssl = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { encoding: 'utf8' });
  if (ssl.status !== 0) throw new Error(`openssl is needed to make the fake API server's certificate: ${ssl.error?.message ?? ssl.stderr}`);
  const cert = await fs.readFile(path.join(dir, 'cert.pem'));
  const server = https.createServer({ cert, key: await fs.readFile(path.join(dir, 'key.pem')) }, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const u = new URL(req.url!, 'http://x');
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    log.push({ method: req.method!, path: u.pathname, body, auth: req.headers.authorization });
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && (m = /^\/api\/v1\/nodes\/([^/]+)$/.exec(u.pathname))) {
      if (m[1] === conv.node.metadata.name) return json(res, 200, conv.node);
      if (m[1] === conv.linuxNode.metadata.name) return json(res, 200, conv.linuxNode);
      return json(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `nodes "${m[1]}" not found`, reason: 'NotFound', code: 404 });
    }
    if (req.method === 'POST' && u.pathname === '/api/v1/namespaces/default/pods') {
      if (mode.createForbidden) return json(res, 403, conv.forbidden);
      const name = `${body.metadata.generateName}x${++n}`;
      const pod = { ...body, metadata: { ...body.metadata, name, namespace: 'default', uid: `uid-${n}` }, status: { phase: 'Pending' } };
      pods.set(name, { body: pod, reads: 0 });
      return json(res, 201, pod);
    }
    if ((m = /^\/api\/v1\/namespaces\/default\/pods\/([^/]+)$/.exec(u.pathname))) {
      const p = pods.get(m[1]);
      if (!p) return json(res, 404, { kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404, message: 'not found' });
      if (req.method === 'DELETE') { pods.delete(m[1]); return json(res, 200, JSON.parse(JSON.stringify(conv.deleted).replace('{{POD}}', m[1]))); }
      const state = mode.imagePull ? conv.imagePullFailure : conv.podStates[Math.min(p.reads++, conv.podStates.length - 1)];
      return json(res, 200, { ...p.body, status: state });
    }
    json(res, 404, { kind: 'Status', status: 'Failure', code: 404, message: `no route ${req.method} ${u.pathname}` });
  });
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has('v4.channel.k8s.io') ? 'v4.channel.k8s.io' : false) });
  server.on('upgrade', (req, socket, head) => {
    const u = new URL(req.url!, 'http://x');
    log.push({ method: 'EXEC', path: u.pathname, body: u.searchParams.getAll('command'), auth: req.headers.authorization });
    wss.handleUpgrade(req, socket, head, async (ws) => {
      const command = u.searchParams.getAll('command');
      const a = await answerFromFixtures(DEMO, command.join(' '));
      const frame = (ch: number, data: Uint8Array | string) => ws.send(Buffer.concat([Buffer.from([ch]), Buffer.from(data)]));
      for (let i = 0; i < a.stdout.length; i += 8192) frame(1, a.stdout.subarray(i, i + 8192));
      if (a.stderr.length) frame(2, a.stderr);
      frame(3, JSON.stringify(a.exitCode === 0 ? conv.execSuccess : conv.execNonZero));
      ws.close(1000);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  const kubeconfig = path.join(dir, 'config');
  await fs.writeFile(kubeconfig, [
    'apiVersion: v1', 'kind: Config', 'current-context: test',
    'clusters:', `- name: test`, `  cluster:`, `    server: ${url}`, `    certificate-authority-data: ${cert.toString('base64')}`,
    'users:', '- name: dev', '  user:', `    token: ${TOKEN}`,
    'contexts:', '- name: test', '  context:', '    cluster: test', '    user: dev',
  ].join('\n') + '\n');
  closers.push(async () => { wss.close(); server.closeAllConnections(); await new Promise<void>((r) => server.close(() => r())); await fs.rm(dir, { recursive: true, force: true }); });
  return { url, kubeconfig, log };
}

const text = async (f: string) => decodeFixture(await fs.readFile(path.join(DEMO, f)));

describe('kubectl backend (HostProcess pod) against a replayed API conversation', () => {
  it('creates a SYSTEM, host-network HostProcess pod pinned to the node, waits for Running, execs, deletes it', async () => {
    const api = await fakeApi();
    const sh = new KubectlShell({ node: 'akswin000000', kubeconfig: api.kubeconfig, pollMs: 20 });
    const r = await sh.run('# hnsight-collect: network\n');
    expect(r.exitCode).toBe(0);
    expect(new TextDecoder().decode(r.stdout)).toBe(await text('network.txt'));
    const miss = await sh.run('# hnsight-collect: nosuch\n');
    expect(miss.exitCode).toBe(1);
    expect(miss.stderr).toMatch(/unknown script/);
    await sh.close();
    const create = api.log.find((l) => l.method === 'POST')!.body as { spec: Record<string, unknown> & { securityContext: { windowsOptions: Record<string, unknown> } } };
    expect(create.spec.nodeName).toBe('akswin000000');
    expect(create.spec.hostNetwork).toBe(true);
    expect(create.spec.securityContext.windowsOptions).toEqual({ hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' });
    const exec = api.log.find((l) => l.method === 'EXEC')!;
    expect((exec.body as string[]).slice(0, 3)).toEqual(['powershell.exe', '-NoProfile', '-NonInteractive']);
    expect(exec.auth).toBe(`Bearer ${TOKEN}`);
    expect(api.log.filter((l) => l.method === 'GET' && /pods\//.test(l.path)).length).toBeGreaterThanOrEqual(2);
    expect(api.log.at(-1)).toMatchObject({ method: 'DELETE', path: `/api/v1/namespaces/default/pods/${sh.createdPods[0]}` });
  });

  it('collects a full bundle through the service and deletes the pod', async () => {
    const api = await fakeApi();
    const out = await fs.mkdtemp(path.join(os.tmpdir(), 'hnsight-kout-'));
    closers.push(() => fs.rm(out, { recursive: true, force: true }));
    const m = await startLiveCollection({ target: { transport: 'kubectl', node: 'akswin000000', kubeconfig: api.kubeconfig }, credentials: {}, outDir: path.join(out, 'b') }).done;
    expect(m.status).toBe('complete');
    expect(await fs.readFile(path.join(out, 'b', 'endpoint.txt'), 'utf8')).toBe(await text('endpoint.txt'));
    expect(api.log.filter((l) => l.method === 'DELETE')).toHaveLength(1);
    const files = await fs.readdir(path.join(out, 'b'));
    for (const f of files) expect(await fs.readFile(path.join(out, 'b', f), 'utf8')).not.toContain(TOKEN);
  });

  it('deletes the pod even when it cannot start (image pull), and says why', async () => {
    const api = await fakeApi({ imagePull: true });
    const sh = new KubectlShell({ node: 'akswin000000', kubeconfig: api.kubeconfig, pollMs: 20 });
    const err = await sh.open().catch((e) => e);
    expect(err.message).toMatch(/cannot start: ImagePullBackOff/);
    expect(api.log.at(-1)!.method).toBe('DELETE');
  });

  it('refuses a Linux node and reports RBAC refusal as an auth error, without the token', async () => {
    const api = await fakeApi({ createForbidden: true });
    const e1 = await new KubectlShell({ node: 'aks-nodepool1-0', kubeconfig: api.kubeconfig }).open().catch((e) => e);
    expect(e1.message).toMatch(/not a Windows node/);
    const e2 = await new KubectlShell({ node: 'akswin000000', kubeconfig: api.kubeconfig }).open().catch((e) => e);
    expect(e2.kind).toBe('auth');
    expect(e2.message).toMatch(/cannot create resource "pods"/);
    expect(String(e2.stack)).not.toContain(TOKEN);
    const e3 = await new KubectlShell({ node: 'nope', kubeconfig: api.kubeconfig }).open().catch((e) => e);
    expect(e3.message).toMatch(/not found/);
  });
});
