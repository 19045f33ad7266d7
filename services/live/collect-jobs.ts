// Live collections as background jobs: each job's state is what getCollectJob answers and what the
// 'collect' events carry. The password is held in memory for its job only (and handed to the secret
// store when the user asked to remember it and it worked); it is never part of a job state, an error
// or a file.
import path from 'node:path';
import { promises as fs } from 'node:fs';
import { ApiError, withoutSecrets, type CollectCommandView, type CollectJob, type CollectTarget, type Request } from '../../contract/index.ts';
import { startLiveCollection, type LiveCollectionJob, type LiveTarget } from './service.ts';
import type { CollectEvent, CollectManifest, CommandRecord } from './collector.ts';
import { newCollectionDir, targetKey, targetLabel, type SavedTargetStore } from './saved-targets.ts';
import type { SecretStore } from '../backend/secret-store.ts';
import type { EventBus } from '../backend/event-bus.ts';
import { nextId } from '../backend/ids.ts';

const MAX_RUNNING = 4;
const KEEP_FINISHED = 20;

export interface CollectJobsOptions {
  dataDir: string;
  events: EventBus;
  savedTargets: SavedTargetStore;
  secretStore?: SecretStore;
  /** Why a password cannot be remembered here, or undefined when it can. */
  rememberRefusal(): string | undefined;
}

export class CollectJobs {
  private jobs = new Map<string, Collection>();

  constructor(private readonly o: CollectJobsOptions) {}

  get(jobId: string): CollectJob {
    return this.job(jobId).view();
  }

  cancel(jobId: string): void {
    this.job(jobId).cancel();
  }

  /**
   * `kubeconfigMayRun`: false when the kubeconfig is not one the user chose (the default location or a
   * dialog's answer): its exec credential plugins and auth-provider commands are then refused (kubectl.ts).
   */
  async start(req: Request<'startCollect'>, o: { kubeconfigMayRun?: boolean } = {}): Promise<{ jobId: string }> {
    const { target } = req;
    const key = targetKey(target);
    const store = this.o.secretStore;
    if (req.remember) {
      const refusal = this.o.rememberRefusal();
      if (refusal) throw new ApiError(`cannot remember the password: ${refusal}`, 'refused');
    }
    const running = [...this.jobs.values()].filter((j) => !j.finished).length;
    if (running >= MAX_RUNNING) throw new ApiError(`${running} collections are running; wait for one to finish or cancel it`, 'refused');
    // No password typed: a remembered one, if there is one.
    let secret: string | undefined = req.password || undefined;
    let usedRemembered = false;
    if (!secret && store && target.transport !== 'kubectl' && !this.o.rememberRefusal()) {
      secret = await store.get(key).catch(() => undefined);
      usedRemembered = !!secret;
    }
    if (target.transport === 'winrm' && !secret) throw new ApiError('WinRM needs a password', 'invalid');
    if (target.transport === 'ssh' && !secret && !target.privateKeyFile) throw new ApiError('SSH needs a password or a private key file', 'invalid');
    if (req.remember === false && store) await store.delete(key).catch(() => undefined);

    const outDir = req.outDir ? path.resolve(req.outDir) : await newCollectionDir(this.o.dataDir, target);
    const jobId = nextId('collect');
    const credentials = target.transport === 'ssh' && target.privateKeyFile ? { passphrase: secret } : { password: secret };
    const job = new Collection(jobId, target, outDir, (j, progress) => (progress ? this.o.events.progress({ type: 'collect', job: j }) : this.o.events.emit({ type: 'collect', job: j })));
    this.jobs.set(jobId, job);
    const secrets = secret ? [secret] : [];
    const remember = req.remember === true && !!secret && !!store;

    const onEvent = (e: CollectEvent) => {
      job.onEvent(e);
      if (e.type === 'connected') {
        // The credentials worked: now the target is worth listing, and the password worth keeping.
        void this.o.savedTargets.touch(key, target).catch(() => undefined);
        if (remember && secret) {
          store!.set(key, secret).then(
            () => job.patch({ passwordRemembered: true }),
            (err: unknown) => job.patch({ rememberError: withoutSecrets(`could not remember the password: ${err instanceof Error ? err.message : String(err)}`, secrets, 'could not remember the password') }),
          );
        }
      }
    };
    let live: LiveCollectionJob;
    try {
      live = startLiveCollection({ target: (target.transport === 'kubectl' ? { ...target, mayRunCommands: o.kubeconfigMayRun ?? true } : { ...target }) as LiveTarget, credentials, outDir, onEvent });
    } catch (e) {
      this.jobs.delete(jobId);
      throw e;
    }
    job.attach(live);
    live.done
      .then(
        async (m) => {
          // A folder we made for a run that never got in holds only its manifest: not worth keeping.
          // It is gone before the job says it ended, so whoever follows the job never sees it.
          if (!req.outDir && (m.status === 'failed' || m.status === 'cancelled') && m.commands.every((c) => c.status === 'skipped' || c.bytes === 0)) {
            await fs.rm(outDir, { recursive: true, force: true }).catch(() => undefined);
          }
          job.finish(m, undefined, secrets, usedRemembered);
        },
        (e: unknown) => job.finish(undefined, e, secrets, usedRemembered),
      )
      .finally(() => {
        // Drop every reference to the password this job held.
        secret = undefined;
        secrets.length = 0;
      });
    for (const [id, j] of this.jobs) {
      if (this.jobs.size <= KEEP_FINISHED) break;
      if (j.finished) {
        this.jobs.delete(id);
        this.o.events.forget('collect', id);
      }
    }
    return { jobId };
  }

  private job(id: string): Collection {
    const j = this.jobs.get(id);
    if (!j) throw new ApiError(`no collection job ${id}`, 'not-found');
    return j;
  }
}

function commandView(r: CommandRecord): CollectCommandView {
  const v: CollectCommandView = { id: r.id, file: r.file, title: r.title, status: r.status, bytes: r.bytes, durationMs: r.durationMs };
  if (r.error) v.error = r.error;
  return v;
}

/** One collection: its state as the renderer sees it, updated from the collector's events. */
class Collection {
  private state: CollectJob;
  private live?: LiveCollectionJob;
  finished = false;

  constructor(
    jobId: string,
    target: CollectTarget,
    outDir: string,
    private readonly publish: (job: CollectJob, progress: boolean) => void,
  ) {
    this.state = {
      jobId, state: 'connecting', transport: target.transport, target: targetLabel(target), outDir,
      startedAt: new Date().toISOString(), total: 0, commands: [], bytes: 0,
    };
  }

  attach(live: LiveCollectionJob): void {
    this.live = live;
  }

  cancel(): void {
    this.live?.cancel();
  }

  view(): CollectJob {
    return { ...this.state, current: this.state.current && { ...this.state.current }, commands: [...this.state.commands] };
  }

  patch(p: Partial<CollectJob>): void {
    Object.assign(this.state, p);
    this.publish(this.view(), false);
  }

  onEvent(e: CollectEvent): void {
    const s = this.state;
    let progress = false;
    switch (e.type) {
      case 'connecting':
        s.target = e.target;
        break;
      case 'connected':
        s.state = 'running';
        if (e.notices?.length) s.notices = e.notices;
        break;
      case 'command-start':
        s.total = e.total;
        s.current = { id: e.id, file: e.file, title: e.title, index: e.index, bytes: 0 };
        break;
      case 'command-output':
        if (s.current?.id === e.id) {
          s.current.bytes = e.bytes;
          s.bytes = s.commands.reduce((n, c) => n + c.bytes, 0) + e.bytes;
        }
        progress = true;
        break;
      case 'command-end':
        s.total = e.total;
        s.commands.push(commandView(e.record));
        s.bytes = s.commands.reduce((n, c) => n + c.bytes, 0);
        s.current = undefined;
        break;
      case 'done':
        return;
    }
    this.publish(this.view(), progress);
  }

  finish(m: CollectManifest | undefined, err: unknown, secrets: readonly string[], usedRemembered: boolean): void {
    const s = this.state;
    s.finishedAt = new Date().toISOString();
    s.current = undefined;
    if (m) {
      const commands = m.commands.map(commandView);
      s.commands = commands;
      s.total = commands.length;
      s.bytes = commands.reduce((n, c) => n + c.bytes, 0);
      s.manifest = { status: m.status, commands };
      if (m.error) s.manifest.error = m.error;
      s.state = m.status === 'complete' ? 'done' : m.status;
      if (m.error) s.error = m.error;
      if (s.state === 'failed' && usedRemembered && commands.every((c) => c.status === 'skipped')) {
        s.error = `${s.error ?? 'could not connect'} (the remembered password was used; type the password to try another)`;
      }
    } else {
      s.state = 'failed';
      s.error = err instanceof Error ? err.message : String(err);
    }
    // Belt and braces: nothing the renderer sees may carry the password, whatever a server answered.
    if (secrets.length) {
      const generic = '(message withheld: it contained the password)';
      if (s.error) s.error = withoutSecrets(s.error, secrets, generic);
      if (s.manifest?.error) s.manifest.error = withoutSecrets(s.manifest.error, secrets, generic);
      for (const c of s.commands) if (c.error) c.error = withoutSecrets(c.error, secrets, generic);
    }
    this.live = undefined;
    this.finished = true;
    this.publish(this.view(), false);
  }
}
