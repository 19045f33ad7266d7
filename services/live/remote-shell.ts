// The one remote-shell interface every live-collection backend implements (WinRM, SSH, kubectl exec).

export interface RunOptions {
  /** Abort = cancel: the backend stops the remote command (best effort) and rejects with kind 'cancelled'. */
  signal?: AbortSignal;
  /** Whole-command limit; on expiry the remote command is stopped and the call rejects with kind 'timeout'. */
  timeoutMs?: number;
  /** Streaming: raw stdout bytes as they arrive (UTF-8; decode only at the end, characters may split). */
  onStdout?: (chunk: Uint8Array) => void;
  onStderr?: (chunk: Uint8Array) => void;
}

export interface RunResult {
  stdout: Uint8Array;
  /** stderr as text, PowerShell CLIXML decoded. */
  stderr: string;
  exitCode: number;
}

export interface RemoteShell {
  readonly transport: 'winrm' | 'ssh' | 'kubectl';
  /** What the user connected to, without credentials (e.g. `http://node1:5985/wsman`). */
  readonly target: string;
  /** Connects and authenticates; rejects with a RemoteError. Safe to call again after a failure. */
  open(signal?: AbortSignal): Promise<void>;
  /** Runs a PowerShell script on the node. */
  run(script: string, opts?: RunOptions): Promise<RunResult>;
  /** What the user should know about the connection once open (a host key accepted but not saved). */
  readonly notices?: readonly string[];
  /** Releases the remote side (shell, pod, session). Never throws. */
  close(): Promise<void>;
}

export type RemoteErrorKind = 'auth' | 'connection' | 'timeout' | 'cancelled' | 'protocol' | 'tls' | 'refused' | 'remote';

/** Messages never contain secrets: they are built from fixed text, host names and server replies only. */
export class RemoteError extends Error {
  constructor(readonly kind: RemoteErrorKind, message: string, readonly retryable = false) {
    super(message);
    this.name = 'RemoteError';
  }
}

export function abortError(signal?: AbortSignal): RemoteError {
  const r = signal?.reason;
  return r instanceof RemoteError ? r : new RemoteError('cancelled', 'cancelled');
}

/** Combines a caller's signal with a timeout into one signal whose reason says which fired. */
export function withTimeout(signal: AbortSignal | undefined, timeoutMs: number | undefined, what: string): { signal: AbortSignal; dispose: () => void } {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort(abortError(signal));
  if (signal) { if (signal.aborted) onAbort(); else signal.addEventListener('abort', onAbort, { once: true }); }
  const t = timeoutMs && timeoutMs > 0 ? setTimeout(() => ctl.abort(new RemoteError('timeout', `${what} timed out after ${Math.round(timeoutMs / 1000)} s`)), timeoutMs) : null;
  return { signal: ctl.signal, dispose: () => { if (t) clearTimeout(t); signal?.removeEventListener('abort', onAbort); } };
}
