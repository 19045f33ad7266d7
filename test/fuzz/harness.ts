// The fuzz harness: feeds cases to a child process with a capped heap, one at a time, and turns what
// goes wrong into findings — a crash (an exception out of the loader or an analysis, or the child
// dying), a memory blow-up (the child's heap cap reached), a hang (no answer within the hang limit:
// a detector for runaway work, counted in the child's CPU so a busy shared machine never trips it), a budget spent
// (a check or view "not evaluated: over budget"), or a check that threw. Findings can be saved as
// crashers (test/fuzz/crashers/*.json.gz): the inputs themselves, replayed by the regression test.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { makeCase } from './mutate.ts';
import type { ChildAnswer, ChildTask } from './child-main.ts';
import type { ZipDamage } from './exercise.ts';

export const CRASHERS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'crashers');

export type FindingKind = 'crash' | 'memory' | 'hang' | 'budget' | 'check-failed';

export interface FuzzFinding {
  kind: FindingKind;
  /** The case's seed, or the crasher file it was replayed from. */
  source: string;
  message: string;
}

export interface Crasher {
  kind: FindingKind;
  message: string;
  seed?: number;
  base?: string;
  steps?: string[];
  /** [name, base64 bytes] of every file of the bundle. */
  files: [string, string][];
  /** The case went through the real loader as a zip damaged this way. */
  zip?: ZipDamage;
}

export interface HarnessOptions {
  /** The heap cap of the child process (MB). */
  heapMb?: number;
  /**
   * A case whose child spends this much CPU without answering is a hang (ms of the child's CPU, all
   * its threads; wall time where the system does not say, as off Linux). Also a hang: no answer in
   * WALL_FACTOR times as much wall time (a child stuck without spending CPU).
   */
  hangMs?: number;
}

/**
 * CPU, not wall time: on a shared machine (a load average of 20 on two cores) a case that takes 2.5
 * CPU-s alone took more than 60 s of wall in a whole `npm test`, 2026-11-30, and was reported as a hang.
 */
const WALL_FACTOR = 10;

/** The CPU (user + system, ms) a process has spent, every thread of it; undefined where /proc is not. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // The command name, in parentheses, may hold spaces: the fields are counted after it.
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

export class Harness {
  private child: { proc: ChildProcess; ready: Promise<void>; stderr: string } | undefined;
  private readonly heapMb: number;
  private readonly hangMs: number;

  constructor(o: HarnessOptions = {}) {
    this.heapMb = o.heapMb ?? 1024;
    this.hangMs = o.hangMs ?? 60_000;
  }

  private ensure(): NonNullable<Harness['child']> {
    if (this.child) return this.child;
    // child.mjs: its bundle when the run's global setup built one, else child-main.ts through tsx.
    const proc = fork(fileURLToPath(new URL('./child.mjs', import.meta.url)), [], {
      execArgv: [`--max-old-space-size=${this.heapMb}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    const c = { proc, stderr: '', ready: new Promise<void>((resolve) => proc.once('message', () => resolve())) };
    // The tail of what it said before dying tells a heap exhaustion from another crash.
    proc.stderr!.on('data', (d: Buffer) => (c.stderr = (c.stderr + d.toString()).slice(-4000)));
    this.child = c;
    return c;
  }

  /** Runs one task; undefined when all went well. */
  async run(task: ChildTask, source: string): Promise<FuzzFinding | undefined> {
    const c = this.ensure();
    const p = c.proc;
    type Result = ChildAnswer | { died: string } | { hung: true };
    const answer = await new Promise<Result>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (a: Result) => {
        clearInterval(timer);
        p.off('message', onMessage);
        p.off('exit', onExit);
        resolve(a);
      };
      const onMessage = (a: ChildAnswer) => done(a);
      const onExit = (code: number | null, signal: string | null) => done({ died: `the process ended (${signal ?? `exit code ${code}`})` });
      p.on('exit', onExit);
      void c.ready.then(() => {
        p.on('message', onMessage);
        // The hang limit counts from when the case is handed over, not from the child's start-up.
        const wall0 = Date.now();
        const cpu0 = processCpuMs(p.pid);
        timer = setInterval(() => {
          const wall = Date.now() - wall0;
          const cpu = processCpuMs(p.pid);
          const spent = cpu !== undefined && cpu0 !== undefined ? cpu - cpu0 : wall;
          if (spent >= this.hangMs || wall >= this.hangMs * WALL_FACTOR) done({ hung: true });
        }, Math.min(250, this.hangMs / 4));
        p.send(task);
      });
    });
    if ('hung' in answer || 'died' in answer) {
      this.child = undefined;
      if (p.exitCode === null && p.signalCode === null) {
        const gone = new Promise((r) => p.once('exit', r));
        p.kill('SIGKILL');
        await gone;
      }
      if ('hung' in answer) return { kind: 'hang', source, message: `no answer within ${this.hangMs / 1000} s of its CPU` };
      const memory = /heap out of memory|Reached heap limit/i.test(c.stderr);
      return { kind: memory ? 'memory' : 'crash', source, message: `${answer.died}${c.stderr ? `: ${c.stderr.trim().split('\n').slice(0, 3).join(' / ')}` : ''}` };
    }
    if (!answer.ok) return { kind: 'crash', source, message: answer.error };
    if (answer.overBudget.length) return { kind: 'budget', source, message: `over budget: ${answer.overBudget.join(', ')}` };
    if (answer.checkFailed.length) return { kind: 'check-failed', source, message: answer.checkFailed.join('; ') };
    return undefined;
  }

  runSeed(seed: number): Promise<FuzzFinding | undefined> {
    return this.run({ seed }, `seed ${seed}`);
  }

  replay(file: string): Promise<FuzzFinding | undefined> {
    const c = readCrasher(file);
    return this.run({ replay: { base: c.base, files: c.files, ...(c.zip ? { zip: c.zip } : {}) } }, path.basename(file));
  }

  async close(): Promise<void> {
    const c = this.child;
    this.child = undefined;
    if (c && c.proc.exitCode === null && c.proc.signalCode === null) {
      const gone = new Promise((r) => c.proc.once('exit', r));
      c.proc.kill();
      await gone;
    }
  }
}

/** Saves the input of a seed's finding as a crasher; returns its file. */
export function saveCrasher(seed: number, f: FuzzFinding, dir = CRASHERS): string {
  const c = makeCase(seed);
  const crasher: Crasher = { kind: f.kind, message: f.message.slice(0, 2000), seed, base: c.base, steps: c.steps, files: c.files.map(([n, b]) => [n, Buffer.from(b).toString('base64')]), ...(c.zip ? { zip: c.zip } : {}) };
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${f.kind}-${seed}.json.gz`);
  writeFileSync(file, gzipSync(JSON.stringify(crasher), { level: 9 }));
  return file;
}

export function readCrasher(file: string): Crasher {
  return JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as Crasher;
}

export function crasherFiles(dir = CRASHERS): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith('.json.gz')).sort().map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}
