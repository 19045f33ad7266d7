// The recent-bundles list, kept as JSON in the app's data folder.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import type { RecentEntry } from '../contract/index.ts';

const MAX = 15;

export class RecentStore {
  constructor(private readonly dataDir: string) {}

  private get file(): string {
    return path.join(this.dataDir, 'recent.json');
  }

  async list(): Promise<RecentEntry[]> {
    try {
      const parsed = JSON.parse(await fs.readFile(this.file, 'utf8'));
      return Array.isArray(parsed) ? parsed.filter((e) => e && typeof e.path === 'string').slice(0, MAX) : [];
    } catch {
      return [];
    }
  }

  async add(entry: RecentEntry): Promise<RecentEntry[]> {
    const list = (await this.list()).filter((e) => e.path !== entry.path);
    list.unshift(entry);
    const out = list.slice(0, MAX);
    await writeFileAtomic(this.file, JSON.stringify(out, null, 2));
    return out;
  }

  async clear(): Promise<void> {
    await writeFileAtomic(this.file, '[]');
  }
}

/** Where hnsight keeps its settings outside Electron (browser mode, CLI). */
export function defaultDataDir(): string {
  const base = process.env.XDG_CONFIG_HOME || (process.platform === 'win32' ? process.env.APPDATA : undefined) || path.join(process.env.HOME || process.cwd(), '.config');
  return path.join(base!, 'hnsight');
}
