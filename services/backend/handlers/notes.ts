// Handlers of the notes domain: a bundle's notes, saved with revisions (a stale save is refused).
import { ApiError, type Response } from '../../../contract/index.ts';
import type { Notes } from '../../../analysis/report/notes.ts';
import { StaleNotesError, bundleHash } from '../../notes/index.ts';
import type { OpenBundle } from '../open-bundles.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

export function notesHandlers(ctx: BackendContext): Pick<Handlers, 'getNotes' | 'saveNotes'> {
  return {
    getNotes: async ({ bundleId }) => ctx.notes.get(await notesIdentity(ctx.bundles.get(bundleId))),
    saveNotes: async ({ bundleId, notes, baseRevision }): Promise<Response<'saveNotes'>> => {
      const b = ctx.bundles.get(bundleId);
      try {
        const { revision } = await ctx.notes.save(await notesIdentity(b), notes as Notes, baseRevision);
        return { revision };
      } catch (e) {
        if (e instanceof StaleNotesError) throw new ApiError(e.message, 'refused');
        throw e;
      }
    },
  };
}

/** The identity a bundle's notes are kept under: its content hash, location and host. */
export async function notesIdentity(b: OpenBundle): Promise<Notes['bundle']> {
  b.hash ??= bundleHash(b.model.source.location);
  let hash: string;
  try {
    hash = await b.hash;
  } catch (e) {
    b.hash = undefined;
    throw new ApiError(`cannot identify the bundle for its notes: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { hash, location: b.model.source.location, ...(b.model.meta.hostName ? { hostName: b.model.meta.hostName } : {}) };
}
