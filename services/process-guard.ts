// A long-running process (hnsight serve, the desktop app's main process) must not die because one
// operation forgot to handle a failure: with Node's default, an unhandled promise rejection ends the
// process, and with it every open bundle and the user's unsaved view (issue #28: a read-only
// known_hosts did exactly that). The failure is reported, with its stack, and the process goes on;
// the operation that lost it has already failed on its own.

/** The events this guard listens to (process, or a stand-in in tests). */
export interface GuardedProcess {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  off(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

/** Reports unhandled rejections through `report` instead of exiting; returns the function that removes the guard. */
export function guardProcess(report: (message: string) => void, proc: GuardedProcess = process): () => void {
  const onRejection = (reason: unknown) => {
    const what = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
    report(`hnsight: an operation failed and nothing handled it; hnsight keeps running. Please report this: ${what}`);
  };
  proc.on('unhandledRejection', onRejection);
  return () => void proc.off('unhandledRejection', onRejection);
}
