// Paste slice: the "Paste output…" dialog. The text (typed, pasted, dropped or read from the clipboard)
// is previewed as what the backend would read it as — kind, output, counts, issues — a moment after it
// stops changing (the latest text wins); adding it starts a load of a new node, alone or joined with
// the node open now, and the session follows that load like any other. A refusal (too big, blank)
// keeps the dialog and its text.
import { pasteRefusal, type Request } from '../../../contract/index.ts';
import type { PastePreview } from '../../../analysis/view-models/paste-preview.ts';
import { utf8Length } from '../lib/utf8-length.ts';
import { errorMessage, type SliceCreator } from './types.ts';

export interface PasteDialogState {
  text: string;
  /** The name the text gets in the node (empty: hnsight names it "paste N.txt"). */
  name: string;
  /** What the text would be read as (for `previewOf`, the text it was made from). */
  preview?: PastePreview;
  previewOf?: string;
  /** A preview is being made for the text as it is now. */
  checking: boolean;
  /** Why there is no preview (the backend could not make one, or the text is too big). */
  error?: string;
  /** Why adding was refused (cleared when the text or name changes). */
  addError?: string;
  /** Adding: waiting for the backend to take the text. */
  adding: boolean;
}

export type PasteTarget = 'this-node' | 'new-node';

export interface PasteSlice {
  /** The dialog, when open. */
  paste?: PasteDialogState;
  /** Opens the dialog; with a text, replaces what it holds. */
  openPaste(text?: string): void;
  setPasteText(text: string): void;
  setPasteName(name: string): void;
  closePaste(): void;
  /** Adds the text: joined with the node open now, or as a node of its own. */
  addPaste(to: PasteTarget): Promise<void>;
}

declare module './types.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges this slice into the store's type
  interface AppState extends PasteSlice {}
}

const PREVIEW_DELAY_MS = 300;
const EMPTY: PasteDialogState = { text: '', name: '', checking: false, adding: false };

export const createPasteSlice: SliceCreator<PasteSlice> = (deps) => (set, get) => {
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const delay = deps.pastePreviewDelayMs ?? PREVIEW_DELAY_MS;

  const update = (patch: Partial<PasteDialogState>) => {
    const p = get().paste;
    if (p) set({ paste: { ...p, ...patch } });
  };

  const preview = async (text: string, name: string, mine: number) => {
    let patch: Partial<PasteDialogState>;
    try {
      // With the open node: the preview also says whether the text looks like another node's.
      const bundleId = get().bundle?.id;
      const req: Request<'recognisePaste'> = { text, ...(name.trim() ? { name: name.trim() } : {}), ...(bundleId ? { bundleId } : {}) };
      patch = { preview: await deps.api.recognisePaste(req), previewOf: text, checking: false, error: undefined };
    } catch (e) {
      patch = { preview: undefined, previewOf: undefined, checking: false, error: errorMessage(e) };
    }
    if (mine === seq) update(patch);
  };

  /** Previews the dialog's text once it has stopped changing; a newer text makes an older answer moot. */
  const schedule = () => {
    clearTimeout(timer);
    const mine = ++seq;
    const p = get().paste;
    if (!p) return;
    if (!p.text.trim()) return update({ preview: undefined, previewOf: undefined, checking: false, error: undefined });
    const refusal = pasteRefusal(utf8Length(p.text));
    if (refusal) return update({ preview: undefined, previewOf: undefined, checking: false, error: refusal });
    update({ checking: true, error: undefined });
    const run = () => void preview(p.text, p.name, mine);
    if (delay <= 0) run();
    else timer = setTimeout(run, delay);
  };

  return {
    openPaste(text) {
      set({ paste: { ...(get().paste ?? EMPTY), ...(text !== undefined ? { text, addError: undefined } : {}) } });
      if (text !== undefined) schedule();
    },

    setPasteText(text) {
      update({ text, addError: undefined });
      schedule();
    },

    setPasteName(name) {
      update({ name, addError: undefined });
      schedule();
    },

    closePaste() {
      clearTimeout(timer);
      seq++;
      set({ paste: undefined });
    },

    async addPaste(to) {
      const p = get().paste;
      if (!p || p.adding) return;
      if (!p.text.trim()) return update({ addError: 'There is nothing to add: paste an output first.' });
      const refusal = pasteRefusal(utf8Length(p.text));
      if (refusal) return update({ addError: refusal });
      const bundle = get().bundle;
      if (to === 'this-node' && !bundle) return update({ addError: 'No node is open to add this to: open it as a new node.' });
      update({ adding: true, addError: undefined });
      const req: Request<'addPaste'> = {
        text: p.text,
        ...(to === 'this-node' && bundle ? { bundleId: bundle.id } : {}),
        ...(p.name.trim() ? { name: p.name.trim() } : {}),
      };
      let jobId: string;
      try {
        ({ jobId } = await deps.api.addPaste(req));
      } catch (e) {
        update({ adding: false, addError: errorMessage(e) });
        return;
      }
      get().closePaste();
      await get().open({ job: { jobId, location: to === 'this-node' && bundle ? `${bundle.location} + pasted text` : 'pasted text' } });
    },
  };
};
