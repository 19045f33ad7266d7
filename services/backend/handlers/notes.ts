// Handlers of the notes domain: a bundle's notes, saved with revisions (a stale save is refused).
import { ApiError, type Response } from '../../../contract/index.ts';
import type { Notes } from '../../../analysis/report/notes.ts';
import { StaleNotesError, sourceHash, type NotesBundle } from '../../notes/index.ts';
import { openOrigin } from '../../bundle/origin.ts';
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

/**
 * The identity a bundle's notes are kept under: its content hash, location and host. A node read
 * from pastes is hashed from its texts and keeps its notes in the data folder (it has no folder of
 * its own to keep them beside).
 */
export async function notesIdentity(b: OpenBundle): Promise<NotesBundle> {
  const origin = b.origin;
  b.hash ??= sourceHash(() => openOrigin(origin));
  let hash: string;
  try {
    hash = await b.hash;
  } catch (e) {
    b.hash = undefined;
    throw new ApiError(`cannot identify the bundle for its notes: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { hash, location: b.model.source.location, ...(b.model.meta.hostName ? { hostName: b.model.meta.hostName } : {}), ...(origin.pastes.length ? { beside: false } : {}) };
}
