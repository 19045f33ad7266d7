// `hnsight collect (--winrm URL | --ssh USER@HOST[:PORT] | --kubectl NODE) [--user U] [--password-env VAR]
//   [--insecure-skip-tls-verify] --out DIR`: runs the CollectLogs commands on a live node and writes a bundle.
// Secrets come only from an environment variable (--password-env names it) or an interactive prompt;
// there is deliberately no option that takes a password value.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { UsageError } from '../errors.ts';
import { startLiveCollection, type LiveTarget } from '../../services/live/service.ts';
import type { CollectEvent } from '../../services/live/collector.ts';
import { RemoteError } from '../../services/live/remote-shell.ts';
import { safeJson, safeText } from '../format/safe-text.ts';

export async function runCollect(argv: string[], io: { stderr: NodeJS.WritableStream; stdin: NodeJS.ReadStream } = { stderr: process.stderr, stdin: process.stdin }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv, allowPositionals: false,
      options: {
        winrm: { type: 'string' }, ssh: { type: 'string' }, kubectl: { type: 'string' },
        user: { type: 'string' }, 'password-env': { type: 'string' }, 'insecure-skip-tls-verify': { type: 'boolean' },
        auth: { type: 'string' }, identity: { type: 'string' }, 'known-hosts': { type: 'string' }, 'accept-new-host-key': { type: 'boolean' },
        kubeconfig: { type: 'string' }, context: { type: 'string' }, namespace: { type: 'string' },
        out: { type: 'string' }, json: { type: 'boolean' },
      },
    });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    // Never echo an argument back: someone may have typed a password where it does not belong.
    throw new UsageError(/password/i.test(msg) ? 'unknown option; passwords are never taken on the command line — use --password-env VAR or the prompt' : msg.replace(/'[^']*'/g, "'…'"));
  }
  const v = parsed.values;
  const chosen = (['winrm', 'ssh', 'kubectl'] as const).filter((k) => v[k] !== undefined);
  if (chosen.length !== 1) throw new UsageError('collect needs exactly one of --winrm URL, --ssh USER@HOST[:PORT], --kubectl NODE');
  if (!v.out) throw new UsageError('collect needs --out DIR (a new or empty folder)');
  if (v.auth && v.auth !== 'ntlm' && v.auth !== 'basic') throw new UsageError('--auth is ntlm or basic');

  let target: LiveTarget;
  let needPassword = true;
  if (chosen[0] === 'winrm') {
    if (!v.user) throw new UsageError('--winrm needs --user (DOMAIN\\user or user)');
    if (!/^https?:\/\//i.test(v.winrm!)) throw new UsageError('--winrm takes a URL: http://HOST[:5985] or https://HOST[:5986]');
    target = { transport: 'winrm', url: v.winrm!, user: v.user, auth: v.auth as 'ntlm' | 'basic' | undefined, insecureSkipTlsVerify: v['insecure-skip-tls-verify'] };
  } else if (chosen[0] === 'ssh') {
    const m = /^(?:([^@]+)@)?(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(v.ssh!);
    if (!m) throw new UsageError('--ssh takes USER@HOST[:PORT]');
    const user = m[1] ?? v.user;
    if (!user) throw new UsageError('--ssh needs a user: USER@HOST or --user');
    target = { transport: 'ssh', host: m[2].replace(/^\[|\]$/g, ''), port: m[3] ? Number(m[3]) : undefined, user, privateKeyFile: v.identity, knownHostsFile: v['known-hosts'], acceptNewHostKey: v['accept-new-host-key'] };
    needPassword = !v.identity;
  } else {
    target = { transport: 'kubectl', node: v.kubectl!, kubeconfig: v.kubeconfig, context: v.context, namespace: v.namespace };
    needPassword = false;
  }

  let password: string | undefined;
  if (v['password-env']) {
    password = process.env[v['password-env']];
    if (password === undefined) throw new UsageError(`environment variable ${v['password-env']} is not set`);
  } else if (needPassword) {
    if (!io.stdin.isTTY) throw new UsageError('no password: set one in an environment variable and pass --password-env VAR (stdin is not a terminal to ask)');
    password = await promptHidden(io.stdin, io.stderr, target.transport === 'ssh' ? `password for ${target.user}@${target.host}: ` : `password for ${(target as { user: string }).user}: `);
  }

  const outDir = path.resolve(v.out);
  const err = io.stderr;
  const credentials = target.transport === 'ssh' && v.identity ? { passphrase: password } : { password };
  const job = startLiveCollection({ target, credentials, outDir, onEvent: (e) => err.write(safeText(progressLine(e))) });
  const onSig = () => { err.write('hnsight: cancelling…\n'); job.cancel(); };
  process.once('SIGINT', onSig);
  try {
    const m = await job.done;
    if (v.json) process.stdout.write(safeJson(m) + '\n');
    switch (m.status) {
      case 'complete': return 0;
      case 'partial': return 1;
      case 'cancelled': return 130;
      default: return 2;
    }
  } catch (e) {
    if (e instanceof RemoteError) { err.write(`hnsight: ${safeText(e.message)}\n`); return 2; }
    throw e;
  } finally {
    process.removeListener('SIGINT', onSig);
  }
}

const kib = (n: number) => (n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`);

function progressLine(e: CollectEvent): string {
  switch (e.type) {
    case 'connecting': return `hnsight: connecting to ${e.target}\n`;
    case 'connected': return `hnsight: connected\n${(e.notices ?? []).map((n) => `hnsight: note: ${n}\n`).join('')}`;
    case 'command-start': return `[${e.index + 1}/${e.total}] ${e.file} — ${e.title}\n`;
    case 'command-output': return '';
    case 'command-end': {
      const r = e.record;
      return `[${e.index + 1}/${e.total}] ${r.file}: ${r.status} (${kib(r.bytes)}, ${(r.durationMs / 1000).toFixed(1)} s)${r.error ? ` — ${r.error}` : ''}${r.stderr && r.status !== 'ok' ? `\n    ${r.stderr.split(/\r?\n/).filter(Boolean).slice(0, 3).join('\n    ')}` : ''}\n`;
    }
    case 'done': {
      const m = e.manifest;
      const n = m.commands.filter((c) => c.status === 'ok').length;
      return `hnsight: collection ${m.status}: ${n} of ${m.commands.length} files complete in ${e.outDir}${m.error ? ` (${m.error})` : ''}\n` +
        (m.status === 'complete' || m.status === 'partial' ? `hnsight: open it with: hnsight inspect ${e.outDir}\n` : '');
    }
  }
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(stdin: NodeJS.ReadStream, out: NodeJS.WritableStream, question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    out.write(question);
    const wasRaw = stdin.isRaw;
    stdin.setRawMode?.(true);
    stdin.resume();
    let buf = '';
    const finish = (err?: Error) => {
      stdin.removeListener('data', onData);
      stdin.setRawMode?.(wasRaw);
      stdin.pause();
      out.write('\n');
      if (err) reject(err); else resolve(buf);
    };
    const onData = (d: Buffer) => {
      for (const ch of d.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003') return finish(new UsageError('cancelled at the password prompt'));
        if (ch === '\u007f' || ch === '\b') buf = buf.slice(0, -1);
        else buf += ch;
      }
    };
    stdin.on('data', onData);
  });
}
