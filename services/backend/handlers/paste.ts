// Handlers of the paste domain: what a pasted text would be read as (the dialog's preview), and adding
// it — as a node of its own, or joined with what an open node was read from (its pastes, the bundle it
// was opened from), which loads a new node that replaces it. Pasted texts are kept in memory with the
// node (services/bundle/origin.ts); nothing here opens a path.
import { ApiError, PASTE_MAX_BYTES, PASTES_MAX, PASTES_MAX_TOTAL_BYTES, mib, pasteRefusal } from '../../../contract/index.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { type ParsedFile } from '../../../parsers/bundle/parsed-file.ts';
import { buildPastePreview } from '../../../analysis/view-models/paste-preview.ts';
import { nodeIdentity, otherNode, pasteIdentity } from '../../../analysis/view-models/paste-origin.ts';
import { ParsePool } from '../../bundle/parse-pool.ts';
import type { BundleOrigin } from '../../bundle/origin.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

/** Texts at least this big are read for the preview in a worker thread, so the backend keeps answering. */
const PREVIEW_IN_WORKER = 4 * 1024 * 1024;
/** The name a text is previewed under when it has none: neutral, so only its content decides. */
const PREVIEW_NAME = 'pasted text.txt';

export function pasteHandlers(ctx: BackendContext): Pick<Handlers, 'addPaste' | 'recognisePaste'> {
  return {
    recognisePaste: async ({ text, name, bundleId }) => {
      const bytes = pasteBytes(text);
      const parsed = await parse(name ?? PREVIEW_NAME, bytes);
      const preview = buildPastePreview(parsed);
      // Against the open node (if it is still open): does the text plainly come from another one?
      const node = bundleId ? ctx.bundles.list().find((b) => b.id === bundleId) : undefined;
      const other = node ? otherNode(pasteIdentity(parsed), nodeIdentity(node.model)) : undefined;
      return other ? { ...preview, otherNode: other } : preview;
    },
    addPaste: async ({ text, bundleId, name }) => {
      const bytes = pasteBytes(text);
      if (!/\S/.test(text)) throw new ApiError('the paste holds only blank space: nothing to read', 'invalid');
      const base: BundleOrigin = bundleId ? ctx.bundles.get(bundleId).origin : { pastes: [] };
      if (base.pastes.length >= PASTES_MAX) throw new ApiError(`this node is already built from ${PASTES_MAX} pastes, the most one node takes; open the rest as a new node`, 'refused');
      const total = base.pastes.reduce((n, p) => n + p.bytes.length, bytes.length);
      if (total > PASTES_MAX_TOTAL_BYTES) throw new ApiError(`the pastes of this node would hold ${mib(total)}, more than the ${mib(PASTES_MAX_TOTAL_BYTES)} one node takes; save the outputs as files and open them instead`, 'refused');
      const origin: BundleOrigin = { path: base.path, pastes: [...base.pastes, { name: name ?? `paste ${base.pastes.length + 1}.txt`, bytes }] };
      return ctx.loads.start(origin, { remember: false });
    },
  };
}

/** The text as UTF-8 bytes, refused past the limit with words for the user. */
function pasteBytes(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const refusal = bytes.length > PASTE_MAX_BYTES ? pasteRefusal(bytes.length) : undefined;
  if (refusal) throw new ApiError(refusal, 'refused');
  return bytes;
}

async function parse(name: string, bytes: Uint8Array): Promise<ParsedFile> {
  if (bytes.length < PREVIEW_IN_WORKER) return parseBundleFile(name, bytes);
  const pool = new ParsePool();
  try {
    return await pool.parse(name, { bytes });
  } finally {
    await pool.close();
  }
}
