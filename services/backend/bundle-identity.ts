// When two requests open the same bundle: the same path holding the same files — for a file, the same
// size and modification time; for a folder, the same files under it with the same sizes and times. A
// window reloaded, a second tab or a second click then reuses the one load and the one node (a 900 MB
// node loaded twice ran the server out of memory). Changed files give another identity, so an edited
// bundle is loaded again. Pasted texts live in memory only and have no identity: each paste loads.
import { createHash } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Entries listed at most; a folder with more gets no identity (and simply loads every time). */
const MAX_ENTRIES = 50_000;

/** The identity of what is on disk at `p`, or undefined when it cannot be read (the load will say why). */
export async function bundleIdentity(p: string): Promise<string | undefined> {
  const abs = path.resolve(p);
  try {
    const st = await lstat(abs);
    if (st.isFile()) return `file ${abs} ${st.size} ${st.mtimeMs}`;
    if (!st.isDirectory()) return undefined;
    const h = createHash('sha256');
    let n = 0;
    // Sorted and without following links, as services/bundle/source.ts lists a folder.
    const walk = async (dir: string, rel: string): Promise<boolean> => {
      const names = (await readdir(dir)).sort();
      for (const name of names) {
        if (++n > MAX_ENTRIES) return false;
        const full = path.join(dir, name);
        const s = await lstat(full);
        if (s.isDirectory()) {
          h.update(`d ${rel}${name}\n`);
          if (!(await walk(full, `${rel}${name}/`))) return false;
        } else if (s.isFile()) h.update(`f ${rel}${name} ${s.size} ${s.mtimeMs}\n`);
      }
      return true;
    };
    if (!(await walk(abs, ''))) return undefined;
    return `folder ${abs} ${h.digest('hex')}`;
  } catch {
    return undefined;
  }
}
