// The SSH backend against a real OpenSSH server (Debian openssh-server) started on 127.0.0.1 by the test,
// with a temporary host key, an authorized client key and a fake `powershell` on the session's PATH.
// Needs `apt-get install openssh-server` and root (or a user sshd can log in as); fails saying so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { promises as fs, existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SshShell } from '../../../services/live/ssh.ts';
import { startLiveCollection } from '../../../services/live/service.ts';
import { COLLECT_COMMANDS, scriptFor } from '../../../services/live/collect-commands.ts';
import { decodeFixture } from '../../../tools/winrm-test-server.ts';

const repo = path.resolve(__dirname, '../../..');
const DEMO = path.join(repo, 'assets/demo/l2bridge-node');
const SSHD = '/usr/sbin/sshd';
let dir = '';
let port = 0;
let sshd: ChildProcess | null = null;
let sshdLog = '';
const user = os.userInfo().username;

async function freePort(): Promise<number> {
  return new Promise((resolve) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = (s.address() as net.AddressInfo).port; s.close(() => resolve(p)); }); });
}

beforeAll(async () => {
  if (!existsSync(SSHD)) throw new Error(`${SSHD} not found: this test needs Debian's openssh-server (apt-get install -y openssh-server)`);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hnsight-sshd-'));
  const keygen = (f: string, type = 'ed25519') => {
    const r = spawnSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-f', path.join(dir, f)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.error?.message ?? r.stderr}`);
  };
  keygen('host_ed25519'); keygen('client_ed25519'); keygen('other_ed25519'); keygen('host_ecdsa', 'ecdsa');
  await fs.copyFile(path.join(dir, 'client_ed25519.pub'), path.join(dir, 'authorized_keys'));
  await fs.mkdir(path.join(dir, 'bin'));
  await fs.writeFile(path.join(dir, 'fake-powershell.json'), JSON.stringify({ fixtures: DEMO, files: Object.fromEntries(COLLECT_COMMANDS.map((c) => [c.id, c.file])), multi: COLLECT_COMMANDS.filter((c) => c.multi).map((c) => c.id) }));
  await fs.writeFile(path.join(dir, 'bin', 'powershell'), `#!/bin/sh\nFAKE_PS_CONFIG='${dir}/fake-powershell.json' exec '${process.execPath}' '${repo}/test/fixtures/live/fake-powershell.mjs' "$@"\n`, { mode: 0o755 });
  await fs.mkdir('/run/sshd', { recursive: true }).catch(() => undefined);
  port = await freePort();
  await fs.writeFile(path.join(dir, 'sshd_config'), [
    `Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${dir}/host_ed25519`, `HostKey ${dir}/host_ecdsa`, `PidFile ${dir}/sshd.pid`,
    `AuthorizedKeysFile ${dir}/authorized_keys`, 'StrictModes no', 'UsePAM no', 'PasswordAuthentication no',
    'KbdInteractiveAuthentication no', 'PermitRootLogin prohibit-password', `AllowUsers ${user}`,
    `SetEnv PATH=${dir}/bin:/usr/bin:/bin`, 'PrintMotd no', 'LogLevel VERBOSE',
  ].join('\n') + '\n');
  sshd = spawn(SSHD, ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  sshd.stderr!.on('data', (d) => { sshdLog += d; });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`sshd did not start on 127.0.0.1:${port}:\n${sshdLog}`)), 10000);
    sshd!.once('exit', (c) => { clearTimeout(t); reject(new Error(`sshd exited ${c} (needs root to switch users):\n${sshdLog}`)); });
    const poll = () => { if (/Server listening/.test(sshdLog)) { clearTimeout(t); resolve(); } else setTimeout(poll, 50); };
    poll();
  });
  const hostPub = (await fs.readFile(path.join(dir, 'host_ed25519.pub'), 'utf8')).trim().split(/\s+/).slice(0, 2).join(' ');
  await fs.writeFile(path.join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostPub}\n`);
}, 30000);

afterAll(async () => {
  sshd?.kill('SIGTERM');
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const shell = async (extra: Partial<ConstructorParameters<typeof SshShell>[0]> = {}) =>
  new SshShell({ host: '127.0.0.1', port, user, privateKey: await fs.readFile(path.join(dir, 'client_ed25519')), knownHostsFile: path.join(dir, 'known_hosts'), ...extra });

describe('SSH backend against OpenSSH on loopback', () => {
  it('runs a collection command (powershell -NoProfile -NonInteractive -EncodedCommand) and returns the output', async () => {
    const sh = await shell();
    try {
      const r = await sh.run(scriptFor(COLLECT_COMMANDS.find((c) => c.id === 'endpoint')!));
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(new TextDecoder().decode(r.stdout)).toBe(decodeFixture(await fs.readFile(path.join(DEMO, 'endpoint.txt'))));
      const miss = await sh.run('# hnsight-collect: nosuch\n');
      expect(miss.exitCode).toBe(1);
      expect(miss.stderr).toMatch(/nosuch: not available on this node/);
    } finally { await sh.close(); }
  });

  it('collects a full bundle through the service', async () => {
    const out = path.join(dir, 'bundle');
    const job = startLiveCollection({
      target: { transport: 'ssh', host: '127.0.0.1', port, user, privateKeyFile: path.join(dir, 'client_ed25519'), knownHostsFile: path.join(dir, 'known_hosts') },
      credentials: {}, outDir: out,
    });
    const m = await job.done;
    expect(m.status).toBe('complete');
    expect(m.target).toBe(`ssh://${user}@127.0.0.1:${port}`);
    expect(await fs.readFile(path.join(out, 'vfpOutput.txt'), 'utf8')).toBe(decodeFixture(await fs.readFile(path.join(DEMO, 'vfpOutput.txt'))));
  });

  it('a timeout closes the channel and says so', async () => {
    const sh = await shell();
    try {
      const err = await sh.run('# hnsight-test: sleep 5000', { timeoutMs: 800 }).catch((e) => e);
      expect(err.kind).toBe('timeout');
      const r = await sh.run('# hnsight-collect: winver\n'); // the connection is still usable
      expect(r.exitCode).toBe(0);
    } finally { await sh.close(); }
  });

  it('refuses an unknown host key, and a changed one', async () => {
    const empty = path.join(dir, 'known_hosts_empty');
    await fs.writeFile(empty, '');
    const e1 = await (await shell({ knownHostsFile: empty })).open().catch((e) => e);
    expect(e1.kind).toBe('auth');
    expect(e1.message).toMatch(/SHA256:.*is not in .*known_hosts_empty/);
    const other = (await fs.readFile(path.join(dir, 'other_ed25519.pub'), 'utf8')).trim().split(/\s+/).slice(0, 2).join(' ');
    const wrong = path.join(dir, 'known_hosts_wrong');
    await fs.writeFile(wrong, `[127.0.0.1]:${port} ${other}\n`);
    const e2 = await (await shell({ knownHostsFile: wrong })).open().catch((e) => e);
    expect(e2.message).toMatch(/HAS CHANGED/);
    // Trust on first use, when asked for, adds the key.
    const tofu = path.join(dir, 'known_hosts_tofu');
    const sh = await shell({ knownHostsFile: tofu, acceptNewHostKey: true });
    await sh.open(); await sh.close();
    expect(await fs.readFile(tofu, 'utf8')).toContain(`[127.0.0.1]:${port} ssh-ed25519 `);
  });

  it('accepts a new host key for this connection when known_hosts cannot be written, and says so (no crash)', async () => {
    // Root ignores file modes, so "cannot be written" is a folder where the file should be, and a
    // file where its folder should be: appendFile and mkdir fail as on a read-only known_hosts.
    const asFolder = path.join(dir, 'known_hosts_is_a_folder');
    await fs.mkdir(asFolder);
    const blocker = path.join(dir, 'not_a_folder');
    await fs.writeFile(blocker, '');
    for (const file of [asFolder, path.join(blocker, 'known_hosts')]) {
      const sh = await shell({ knownHostsFile: file, acceptNewHostKey: true });
      try {
        await sh.open();
        expect(sh.notices.join('\n')).toMatch(/accepted for this connection only: it could not be saved to .* \((EISDIR|ENOTDIR|EEXIST)\)/);
        expect((await sh.run('# hnsight-collect: nosuch\n')).exitCode).toBe(1);
      } finally { await sh.close(); }
    }
    // The collection says so too, on its connected event.
    const events: { type: string; notices?: string[] }[] = [];
    const job = startLiveCollection({ target: { transport: 'ssh', host: '127.0.0.1', port, user, privateKeyFile: path.join(dir, 'client_ed25519'), knownHostsFile: asFolder, acceptNewHostKey: true }, credentials: {}, outDir: path.join(dir, 'out-notice'), onEvent: (e) => events.push(e) });
    await job.done;
    expect(events.find((e) => e.type === 'connected')?.notices?.[0]).toMatch(/could not be saved/);
  });

  it('matches a host known_hosts lists only with its ECDSA key (no false "changed")', async () => {
    const ecdsa = (await fs.readFile(path.join(dir, 'host_ecdsa.pub'), 'utf8')).trim().split(/\s+/).slice(0, 2).join(' ');
    const file = path.join(dir, 'known_hosts_ecdsa');
    await fs.writeFile(file, `[127.0.0.1]:${port} ${ecdsa}\n`);
    const sh = await shell({ knownHostsFile: file });
    try { await sh.open(); } finally { await sh.close(); }
    // A @cert-authority line for the host is not its key: the key is unknown, and the message says why.
    const ca = path.join(dir, 'known_hosts_ca');
    const other = (await fs.readFile(path.join(dir, 'other_ed25519.pub'), 'utf8')).trim().split(/\s+/).slice(0, 2).join(' ');
    await fs.writeFile(ca, `@cert-authority [127.0.0.1]:${port} ${other}\n`);
    const e = await (await shell({ knownHostsFile: ca })).open().catch((x) => x);
    expect(e.message).not.toMatch(/HAS CHANGED/);
    expect(e.message).toMatch(/is not in .*certificate authority/);
  });

  it('a key the server does not know is an auth error', async () => {
    const e = await (await shell({ privateKey: await fs.readFile(path.join(dir, 'other_ed25519')) })).open().catch((x) => x);
    expect(e.kind).toBe('auth');
    expect(e.message).toMatch(/refused the SSH credentials/);
  });
});
