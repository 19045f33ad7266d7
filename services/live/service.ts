// Live collection for the app and the CLI: choose a backend from a target description, run the
// collection, report progress, cancel. Credentials are passed in memory only; nothing here stores,
// logs or echoes them (the password is never part of a target, an event, an error or the manifest).
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { WinRmShell } from './winrm.ts';
import { SshShell } from './ssh.ts';
import { KubectlShell } from './kubectl.ts';
import { collectBundle, type CollectEvent, type CollectManifest } from './collector.ts';
import { RemoteError, type RemoteShell } from './remote-shell.ts';

export type LiveTarget =
  | { transport: 'winrm'; url: string; user: string; auth?: 'ntlm' | 'basic'; insecureSkipTlsVerify?: boolean; operationTimeoutSec?: number }
  | { transport: 'ssh'; host: string; port?: number; user: string; privateKeyFile?: string; knownHostsFile?: string; acceptNewHostKey?: boolean }
  /** `mayRunCommands`: false refuses a kubeconfig whose user runs a command (exec plugin, auth-provider cmd-path). */
  | { transport: 'kubectl'; node: string; kubeconfig?: string; context?: string; namespace?: string; mayRunCommands?: boolean };

/** Secrets, in memory for one collection: the WinRM/SSH password or the SSH key's passphrase. */
export interface LiveCredentials { password?: string; passphrase?: string }

export async function createRemoteShell(target: LiveTarget, creds: LiveCredentials): Promise<RemoteShell> {
  switch (target.transport) {
    case 'winrm':
      if (!creds.password) throw new RemoteError('auth', 'WinRM needs a password');
      return new WinRmShell({ url: target.url, user: target.user, password: creds.password, auth: target.auth, insecureSkipTlsVerify: target.insecureSkipTlsVerify, operationTimeoutSec: target.operationTimeoutSec });
    case 'ssh': {
      let privateKey: Buffer | undefined;
      if (target.privateKeyFile) {
        try { privateKey = await fs.readFile(target.privateKeyFile); } catch (e) { throw new RemoteError('auth', `cannot read the SSH key ${target.privateKeyFile}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`); }
      }
      return new SshShell({ host: target.host, port: target.port, user: target.user, password: creds.password, privateKey, passphrase: creds.passphrase, knownHostsFile: target.knownHostsFile, acceptNewHostKey: target.acceptNewHostKey });
    }
    case 'kubectl':
      return new KubectlShell({ node: target.node, kubeconfig: target.kubeconfig, context: target.context, namespace: target.namespace, mayRunCommands: target.mayRunCommands });
  }
}

export interface LiveCollectionJob {
  readonly id: string;
  /** Stops the running command (best effort on the node) and the collection; files written so far stay, marked in the manifest. */
  cancel(): void;
  readonly done: Promise<CollectManifest>;
}

/**
 * Starts a collection. `onEvent` receives progress (connecting, connected, command-start/-output/-end, done).
 * `done` resolves with the manifest (status complete / partial / failed / cancelled) and rejects only when
 * the output folder cannot be used (not empty, not writable) or the target is invalid.
 */
export function startLiveCollection(o: { target: LiveTarget; credentials: LiveCredentials; outDir: string; onEvent?: (e: CollectEvent) => void; shell?: RemoteShell }): LiveCollectionJob {
  const ctl = new AbortController();
  const done = (async () => {
    const shell = o.shell ?? (await createRemoteShell(o.target, o.credentials));
    return collectBundle(shell, { outDir: o.outDir, signal: ctl.signal, onEvent: o.onEvent });
  })();
  return { id: randomUUID(), cancel: () => ctl.abort(new RemoteError('cancelled', 'cancelled by the user')), done };
}

export type { CollectEvent, CollectManifest };
