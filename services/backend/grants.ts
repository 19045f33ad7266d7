// What the renderer — or anyone holding browser mode's token — may open and write: only what the user
// chose. A bundle: a native dialog's answer, a file dropped on the desktop window, the command line, a
// bundle of the recent list or one open now, a folder given to `hnsight serve --allow`; an upload is
// the server's own file. A file to write: only what the save dialog answered. A kubeconfig, key or
// known-hosts file for a live collection: the default locations, an open dialog's answer, or --allow. Checked here, in the
// process that touches the disk (Electron's main process, the browser-mode server), whatever the
// page asks.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../../contract/index.ts';
import type { BackendContext } from './context.ts';

/** Paths as compared: absolute, normalised, and case-folded where the file system folds case. */
function key(p: string): string {
  const r = path.resolve(p);
  return process.platform === 'win32' || process.platform === 'darwin' ? r.toLowerCase() : r;
}

/** The real path of `p`, or its resolved form when it does not exist (the load then says so). */
async function real(p: string): Promise<string> {
  try {
    return key(await fs.realpath(p));
  } catch {
    return key(p);
  }
}

function inside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

/** The user's home folder as the environment names it (as kubectl and ssh find it), else the OS's. */
function homeDir(): string {
  return (process.platform === 'win32' ? process.env.USERPROFILE : process.env.HOME) || os.homedir();
}

export class Grants {
  private readonly bundles = new Set<string>();
  private readonly saves = new Set<string>();
  private readonly untrusted = new Set<string>();
  private readonly credentials = new Set<string>();
  private readonly roots: string[];
  private readonly shipped: string[];

  /**
   * `roots`: folders the user allowed on the command line; any bundle under them may be opened.
   * `shipped`: folders of the demo bundles shipped with the app (the empty state opens them, so
   * browser mode's Open path… may too); bundles only — never a source of credentials, unlike `roots`.
   */
  constructor(roots: readonly string[] = [], shipped: readonly string[] = []) {
    this.roots = roots.map(key);
    this.shipped = shipped.map(key);
  }

  /** The user chose this bundle (a dialog's answer, a drop, the command line). */
  allowOpen(p: string): void {
    this.bundles.add(key(p));
  }

  /** The save dialog answered this file. */
  allowSave(p: string): void {
    this.saves.add(key(p));
  }

  canSave(p: string): boolean {
    return this.saves.has(key(p));
  }

  /** A native open dialog answered this kubeconfig, key or known-hosts file. */
  allowCredential(p: string): void {
    this.credentials.add(key(p));
  }

  /**
   * Where a kubeconfig, key or known-hosts file the page names comes from, or null when it is not one
   * the user can be taken to have chosen. 'default': the places the tools themselves read (~/.kube/config,
   * each file named by $KUBECONFIG, a file directly in ~/.ssh); 'chosen': a native open dialog's
   * answer; 'allowed': under a folder given to `hnsight serve --allow` — readable, but that folder holds
   * bundles too, so a kubeconfig from it may not run a command (kubectl.ts).
   */
  async credentialSource(p: string, home = homeDir()): Promise<'default' | 'chosen' | 'allowed' | null> {
    const r = await real(p);
    if (this.credentials.has(key(p)) || this.credentials.has(r)) return 'chosen';
    // As named or as its link leads (a ~/.ssh/config linked to the user's dotfiles is still the default).
    const as = [key(p), r];
    const kubeconfigs = [path.join(home, '.kube', 'config'), ...(process.env.KUBECONFIG ?? '').split(path.delimiter).filter(Boolean)];
    for (const k of kubeconfigs) {
      const d = [key(k), await real(k)];
      if (as.some((x) => d.includes(x))) return 'default';
    }
    const ssh = [key(path.join(home, '.ssh')), await real(path.join(home, '.ssh'))];
    if (as.some((x) => ssh.includes(path.dirname(x)))) return 'default';
    return (await this.underRoot(p)) ? 'allowed' : null;
  }

  /** A folder whose files came from outside (uploads): never a file the user's credentials are in. */
  distrust(dir: string): void {
    this.untrusted.add(key(dir));
  }

  /**
   * True when `p` lies in a folder of untrusted files or in one of `bundles` (an open bundle's
   * files are a customer's): such a file is not the user's own kubeconfig or key — a kubeconfig can
   * run a command (an exec credential plugin), so one from an upload would run what the page sent.
   */
  async fromOutside(p: string, bundles: Iterable<string>): Promise<boolean> {
    const r = await real(p);
    for (const d of [...this.untrusted, ...[...bundles].map(key)]) if (inside(r, await real(d))) return true;
    return false;
  }

  /** Under a folder allowed on the command line (links resolved, so none leads out of it). */
  async underRoot(p: string): Promise<boolean> {
    if (!this.roots.length) return false;
    const r = await real(p);
    for (const root of this.roots) if (inside(r, await real(root))) return true;
    return false;
  }

  /** True when `p` was chosen by the user, or is among `known` (the recent list, the bundles open now). */
  async canOpen(p: string, known: Iterable<string>): Promise<boolean> {
    const k = key(p);
    if (this.bundles.has(k)) return true;
    for (const q of known) if (key(q) === k) return true;
    if (await this.underRoot(p)) return true;
    const r = await real(p);
    for (const d of this.shipped) if (inside(r, await real(d))) return true;
    return false;
  }
}

/** The refusal of a path the user did not choose, in the words of the mode the user is in. */
export function notChosen(p: string, mode: 'electron' | 'browser'): ApiError {
  return new ApiError(
    mode === 'browser'
      ? `refused: ${p} is not a bundle you chose — hnsight serve opens the bundle named on its command line, bundles under a folder given with --allow, recent bundles and files dropped on the page (uploaded)`
      : `refused: ${p} is not a bundle you chose — open it with File > Open, by dropping it on the window, or from the command line`,
    'refused',
  );
}

/**
 * The absolute path of a bundle the user chose: a dialog's answer, a drop, the command
 * line, a folder allowed on it, the recent list, a bundle open now. Anything else is refused.
 */
export async function chosenBundle(ctx: BackendContext, p: string): Promise<string> {
  const abs = path.resolve(p);
  const recent = (await ctx.recent.list()).map((r) => r.path);
  if (!(await ctx.grants.canOpen(abs, [...recent, ...ctx.bundles.locations()]))) throw notChosen(abs, ctx.opts.mode);
  return abs;
}
