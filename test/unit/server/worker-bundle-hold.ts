// Holds every worker-bundle build this thread starts: its child process is stopped (SIGSTOP) the moment
// it is spawned, so a test sees what runs while a build is in progress — deterministically, not by
// racing a build's duration — and lets it go on (SIGCONT) when it chooses. POSIX only.
//
// A watchdog process lets each build go on by itself after `maxHoldSec`: code that waits for the build
// on the thread that started it (what this must never do) then fails the test's assertions instead of
// waiting forever for a build nothing will release.
import { spawn, type ChildProcess } from 'node:child_process';
import { onWorkerBundleBuild } from '../../../services/worker-entry/ensure-bundle.ts';
import type { ChildBuild } from '../../../services/worker-entry/build-in-child.mjs';

export interface HeldBuilds {
  /** Every build started since holdBuilds(), held or released. */
  builds: ChildBuild[];
  /** Lets the held builds go on. */
  release(): void;
  /** Releases them and holds no more. */
  stop(): void;
}

export function holdBuilds(maxHoldSec = 60): HeldBuilds {
  const builds: ChildBuild[] = [];
  const held = new Set<number>();
  const watchdogs: ChildProcess[] = [];
  const off = onWorkerBundleBuild((b) => {
    builds.push(b);
    if (b.pid === undefined) return;
    process.kill(b.pid, 'SIGSTOP');
    held.add(b.pid);
    const w = spawn('/bin/sh', ['-c', `sleep ${maxHoldSec}; kill -CONT ${b.pid} 2>/dev/null`], { stdio: 'ignore', detached: true });
    w.unref();
    watchdogs.push(w);
  });
  const release = () => {
    for (const w of watchdogs.splice(0)) w.kill();
    for (const pid of held) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Already gone.
      }
    }
    held.clear();
  };
  return {
    builds,
    release,
    stop: () => {
      off();
      release();
    },
  };
}
