// Targets the user collected from, kept as JSON in the data folder (never a secret), and the key,
// label and folder name each target goes by.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.ts';
import type { CollectTarget, SavedTarget } from '../../contract/index.ts';

const MAX_SAVED = 30;

type Saved = Omit<SavedTarget, 'passwordRemembered'>;

export class SavedTargetStore {
  private chain: Promise<unknown> = Promise.resolve();
  constructor(private readonly dataDir: string) {}

  private get file(): string {
    return path.join(this.dataDir, 'saved-targets.json');
  }

  async list(): Promise<Saved[]> {
    try {
      const parsed = JSON.parse(await fs.readFile(this.file, 'utf8')) as unknown;
      if (!Array.isArray(parsed)) return [];
      return parsed.filter((e): e is Saved => !!e && typeof e.key === 'string' && !!e.target && typeof e.target.transport === 'string').slice(0, MAX_SAVED);
    } catch {
      return [];
    }
  }

  private update(fn: (list: Saved[]) => Saved[]): Promise<void> {
    const next = this.chain.then(async () => {
      const out = fn(await this.list()).slice(0, MAX_SAVED);
      await writeFileAtomic(this.file, JSON.stringify(out, null, 2) + '\n');
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  touch(key: string, target: CollectTarget): Promise<void> {
    return this.update((list) => [{ key, label: targetLabel(target), target, lastUsedAt: new Date().toISOString() }, ...list.filter((t) => t.key !== key)]);
  }

  remove(key: string): Promise<void> {
    return this.update((list) => list.filter((t) => t.key !== key));
  }
}

/** The key a target's remembered password and saved entry go by: transport, where, and as whom. */
export function targetKey(t: CollectTarget): string {
  switch (t.transport) {
    case 'winrm': {
      let where = t.url;
      try {
        const u = new URL(t.url);
        where = `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`.toLowerCase();
      } catch {
        // the contract's pattern admits only URLs; keep the text if one still does not parse
      }
      return `winrm:${where}|${t.user.toLowerCase()}`;
    }
    case 'ssh':
      return `ssh:${t.user}@${t.host.toLowerCase()}:${t.port ?? 22}`;
    case 'kubectl':
      return `kubectl:${t.kubeconfig ?? ''}|${t.context ?? ''}|${t.node.toLowerCase()}`;
  }
}

/** A short name for a target: the host or node as the user typed it. */
export function targetHost(t: CollectTarget): string {
  if (t.transport === 'winrm') {
    try {
      return new URL(t.url).hostname.replace(/^\[|\]$/g, '');
    } catch {
      return 'node';
    }
  }
  return t.transport === 'ssh' ? t.host : t.node;
}

export function targetLabel(t: CollectTarget): string {
  switch (t.transport) {
    case 'winrm':
      return `${t.user} @ ${t.url}`;
    case 'ssh':
      return `${t.user}@${t.host}${t.port && t.port !== 22 ? `:${t.port}` : ''} (SSH)`;
    case 'kubectl':
      return `${t.node} (kubectl${t.context ? `, ${t.context}` : ''})`;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `<dataDir>/collections/<host>-<yyyyMMdd-HHmmss>`, created empty (a suffix when that second is taken). */
export async function newCollectionDir(dataDir: string, t: CollectTarget, now = new Date()): Promise<string> {
  const host = targetHost(t).replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 64) || 'node';
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const parent = path.join(dataDir, 'collections');
  await fs.mkdir(parent, { recursive: true });
  for (let i = 1; ; i++) {
    const dir = path.join(parent, `${host}-${stamp}${i > 1 ? `-${i}` : ''}`);
    try {
      await fs.mkdir(dir);
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || i > 100) throw e;
    }
  }
}
