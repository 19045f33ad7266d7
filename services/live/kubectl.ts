// The kubectl backend: with the user's kubeconfig, create a short-lived HostProcess pod pinned to the
// node (runs as NT AUTHORITY\SYSTEM on the host network, so hnsdiag and vfpctrl work), exec each script
// in it, and delete the pod afterwards, also when anything fails. @kubernetes/client-node is loaded
// lazily so the CLI does not pay for it unless this transport is used.
import { Writable } from 'node:stream';
import { powershellCommand, PS_PROLOGUE } from './wsman.ts';
import { decodeClixml } from './clixml.ts';
import { RemoteError, withTimeout, type RemoteShell, type RunOptions, type RunResult } from './remote-shell.ts';
import { concat } from './crypto.ts';

export const HOSTPROCESS_IMAGE = 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0';

export interface KubectlOptions {
  node: string;
  kubeconfig?: string; context?: string; namespace?: string; image?: string;
  /** How long to wait for the pod to run (image pull included). */
  startTimeoutMs?: number; pollMs?: number;
  /**
   * False: the kubeconfig was not chosen by the user (not the default location, not a dialog's answer),
   * so a user entry that runs a command — an exec credential plugin, an auth provider with a cmd-path —
   * is refused before anything connects. Default true (the CLI's --kubeconfig is the user's own).
   */
  mayRunCommands?: boolean;
}

/** The first user of the kubeconfig that would run a command to get its credentials, described. */
export function commandRunningUser(users: readonly { name: string; exec?: unknown; authProvider?: unknown }[]): string | undefined {
  for (const u of users) {
    if (u.exec) return `user ${JSON.stringify(u.name)} runs an exec credential plugin`;
    const cfg = (u.authProvider as { config?: Record<string, unknown> } | undefined)?.config;
    if (cfg && Object.keys(cfg).some((k) => k.toLowerCase() === 'cmd-path')) return `user ${JSON.stringify(u.name)} has an auth provider that runs a command`;
  }
  return undefined;
}

type K8s = typeof import('@kubernetes/client-node');

export function hostProcessPod(node: string, image: string): Record<string, unknown> {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { generateName: 'hnsight-collect-', labels: { 'app.kubernetes.io/name': 'hnsight-collect', 'app.kubernetes.io/managed-by': 'hnsight' } },
    spec: {
      nodeName: node,
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      hostNetwork: true,
      restartPolicy: 'Never',
      activeDeadlineSeconds: 3900, // the node deletes it even if hnsight never comes back
      terminationGracePeriodSeconds: 0,
      tolerations: [{ operator: 'Exists' }],
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
      containers: [{ name: 'collect', image, command: ['powershell.exe', '-NoProfile', '-NonInteractive', '-Command', 'Start-Sleep -Seconds 3600'] }],
    },
  };
}

const httpStatus = (e: unknown): number | undefined => (e as { code?: number }).code;
const bodyMessage = (e: unknown): string => {
  const b = (e as { body?: unknown }).body;
  try { const j = typeof b === 'string' ? JSON.parse(b) : b; if (j && typeof j === 'object' && 'message' in j) return String((j as { message: unknown }).message); } catch { /* fall through */ }
  return (e as Error).message?.split('\n')[0] ?? String(e);
};

export class KubectlShell implements RemoteShell {
  readonly transport = 'kubectl' as const;
  private k8s: K8s | null = null;
  private kc: InstanceType<K8s['KubeConfig']> | null = null;
  private podName: string | null = null;
  private ns: string;
  /** Tests: the pod that was created (and must be deleted). */
  createdPods: string[] = [];

  constructor(private o: KubectlOptions) { this.ns = o.namespace ?? 'default'; }

  get target(): string { return `kubectl://${this.kc?.getCurrentContext() ?? this.o.context ?? 'current-context'}/nodes/${this.o.node}`; }

  async open(signal?: AbortSignal): Promise<void> {
    if (this.podName) return;
    const k8s = (this.k8s ??= await import('@kubernetes/client-node'));
    const kc = new k8s.KubeConfig();
    try {
      if (this.o.kubeconfig) kc.loadFromFile(this.o.kubeconfig); else kc.loadFromDefault();
      if (this.o.context) kc.setCurrentContext(this.o.context);
    } catch (e) { throw new RemoteError('protocol', `cannot load the kubeconfig: ${(e as Error).message.split('\n')[0]}`); }
    if (this.o.mayRunCommands === false) {
      // Every user, not just the current one: nothing of this file gets to run.
      const runs = commandRunningUser(kc.getUsers());
      if (runs) throw new RemoteError('refused', `refused: the kubeconfig${this.o.kubeconfig ? ` ${this.o.kubeconfig}` : ''} is not ~/.kube/config nor a file picked in the open dialog, and its ${runs}; hnsight runs no command from such a file`);
    }
    if (!kc.getCurrentCluster()) throw new RemoteError('protocol', 'the kubeconfig has no current cluster');
    this.kc = kc;
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const api = async <T>(what: string, p: Promise<T>): Promise<T> => {
      try { return await p; } catch (e) {
        const code = httpStatus(e);
        if (code === 401 || code === 403) throw new RemoteError('auth', `Kubernetes refused to ${what} (HTTP ${code}): ${bodyMessage(e)}`);
        if (code === 404) throw new RemoteError('refused', `${what}: not found (${bodyMessage(e)})`);
        if (code) throw new RemoteError('remote', `${what} failed (HTTP ${code}): ${bodyMessage(e)}`);
        throw new RemoteError('connection', `cannot reach the Kubernetes API server to ${what}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
    };
    const node = await api(`read node ${this.o.node}`, core.readNode({ name: this.o.node }));
    const os = node.metadata?.labels?.['kubernetes.io/os'] ?? node.status?.nodeInfo?.operatingSystem;
    if (os !== 'windows') throw new RemoteError('refused', `node ${this.o.node} is not a Windows node (${os ?? 'unknown OS'})`);
    const created = await api('create the HostProcess pod', core.createNamespacedPod({ namespace: this.ns, body: hostProcessPod(this.o.node, this.o.image ?? HOSTPROCESS_IMAGE) as never }));
    const name = created.metadata?.name;
    if (!name) throw new RemoteError('protocol', 'the API server created a pod without a name');
    this.createdPods.push(name);
    this.podName = name;
    try {
      const deadline = Date.now() + (this.o.startTimeoutMs ?? 180_000);
      while (true) {
        if (signal?.aborted) throw new RemoteError('cancelled', 'cancelled');
        const pod = await api(`read pod ${name}`, core.readNamespacedPod({ name, namespace: this.ns }));
        const phase = pod.status?.phase;
        if (phase === 'Running' && pod.status?.containerStatuses?.every((c) => c.ready !== false)) return;
        if (phase === 'Failed' || phase === 'Succeeded') throw new RemoteError('remote', `the HostProcess pod ${name} ended (${phase}): ${pod.status?.message ?? pod.status?.reason ?? 'no reason given'}`);
        const waiting = pod.status?.containerStatuses?.map((c) => c.state?.waiting).find((w) => w && /ErrImagePull|ImagePullBackOff|CreateContainerError|CreateContainerConfigError|InvalidImageName/.test(w.reason ?? ''));
        if (waiting) throw new RemoteError('remote', `the HostProcess pod ${name} cannot start: ${waiting.reason}: ${waiting.message ?? ''}`.trim());
        const unsched = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
        if (Date.now() > deadline) throw new RemoteError('timeout', `the HostProcess pod ${name} did not start within ${Math.round((this.o.startTimeoutMs ?? 180_000) / 1000)} s${unsched ? ` (${unsched.message})` : ''}`);
        await new Promise((r) => setTimeout(r, this.o.pollMs ?? 1000));
      }
    } catch (e) {
      await this.close();
      throw e;
    }
  }

  async run(script: string, opts: RunOptions = {}): Promise<RunResult> {
    await this.open(opts.signal);
    const k8s = this.k8s!, kc = this.kc!, pod = this.podName!;
    const { command, args } = powershellCommand(PS_PROLOGUE + '\n' + script);
    const t = withTimeout(opts.signal, opts.timeoutMs, 'the command');
    const out: Uint8Array[] = [], err: Uint8Array[] = [];
    const sink = (into: Uint8Array[], cb?: (b: Uint8Array) => void) => new Writable({ write(chunk: Buffer, _enc, done) { const b = new Uint8Array(chunk); into.push(b); cb?.(b); done(); } });
    try {
      return await new Promise<RunResult>((resolve, reject) => {
        let status: { status?: string; reason?: string; message?: string; details?: { causes?: { reason?: string; message?: string }[] } } | null = null;
        let ws: { close(): void; on(ev: string, f: (...a: unknown[]) => void): void } | null = null;
        const onAbort = () => { ws?.close(); reject(t.signal.reason instanceof RemoteError ? t.signal.reason : new RemoteError('cancelled', 'cancelled')); };
        t.signal.addEventListener('abort', onAbort, { once: true });
        new k8s.Exec(kc).exec(this.ns, pod, 'collect', [command, ...args], sink(out, opts.onStdout), sink(err, opts.onStderr), null, false, (s) => { status = s as typeof status; })
          .then((socket) => {
            ws = socket as unknown as typeof ws;
            if (t.signal.aborted) { ws!.close(); return; }
            ws!.on('close', () => {
              t.signal.removeEventListener('abort', onAbort);
              if (t.signal.aborted) return;
              if (!status) return reject(new RemoteError('connection', `the exec stream to pod ${pod} closed without a status`));
              let exitCode = 0;
              if (status.status !== 'Success') {
                const ec = status.details?.causes?.find((c) => c.reason === 'ExitCode')?.message;
                if (status.reason === 'NonZeroExitCode' && ec !== undefined) exitCode = Number(ec);
                else return reject(new RemoteError('remote', `exec in pod ${pod} failed: ${status.message ?? status.reason ?? 'unknown error'}`));
              }
              resolve({ stdout: concat(...out), stderr: decodeClixml(new TextDecoder().decode(concat(...err))), exitCode });
            });
          }, (e: unknown) => {
            t.signal.removeEventListener('abort', onAbort);
            reject(new RemoteError('connection', `cannot exec in pod ${pod}: ${(e as Error).message?.split('\n')[0] ?? e}`));
          });
      });
    } finally { t.dispose(); }
  }

  /** Deletes the pod (grace period 0). Never throws; a pod it cannot delete expires by activeDeadlineSeconds. */
  async close(): Promise<void> {
    const name = this.podName;
    this.podName = null;
    if (!name || !this.k8s || !this.kc) return;
    try {
      await this.kc.makeApiClient(this.k8s.CoreV1Api).deleteNamespacedPod({ name, namespace: this.ns, gracePeriodSeconds: 0 });
    } catch { /* best effort; see activeDeadlineSeconds */ }
  }
}
