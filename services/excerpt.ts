// Evidence excerpts: the lines around a file:line, read back from the bundle. VFP dumps are read again
// from their bytes (memory or the file on disk) where their index says the line starts; other files are read
// again from where the node came from (the folder or zip, the texts pasted) and decoded, and the last
// few are cached.
import { openBundle, type BundleSource } from './bundle/source.ts';
import { formatBytes } from './bundle/limits.ts';
import { decodeText } from '../parsers/text/decode.ts';
import type { NodeModel } from '../parsers/model/types.ts';
import type { FileExcerpt } from '../analysis/view-models/types.ts';
import type { ByteSource, VfpIndex } from '../parsers/vfp/index.ts';

/** Largest text file (other than a VFP dump) read again to show an excerpt. */
const MAX_TEXT_EXCERPT = 64 * 1024 * 1024;

/**
 * Lines [from, to] (1-based, inclusive) of a VFP dump, read again from its bytes (memory or the file on
 * disk): the index finds where `from` starts, and only the bytes of those lines are read.
 */
function vfpLines(bytes: ByteSource, index: VfpIndex, from: number, to: number): string[] {
  const start = index.lineStart(from);
  if (start === undefined) return [];
  const want = to - from + 1;
  let len = 64 * 1024;
  for (;;) {
    const b = bytes.read(start, len);
    const out: string[] = [];
    const dec = new TextDecoder('latin1');
    let pos = 0;
    let complete = true;
    while (out.length < want && pos < b.length) {
      let nl = b.indexOf(10, pos);
      if (nl < 0) {
        if (start + b.length < bytes.size) {
          complete = false;
          break;
        }
        nl = b.length;
      }
      out.push(dec.decode(b.subarray(pos, nl)).replace(/\r$/, ''));
      pos = nl + 1;
    }
    if (complete) return out;
    len *= 2;
  }
}

export class ExcerptReader {
  private textCache = new Map<string, string[]>();

  /** `open` reads the node's files again (its origin); by default the bundle at the model's location. */
  constructor(
    private readonly model: NodeModel,
    private readonly open: () => Promise<BundleSource> = () => openBundle(model.source.location),
  ) {}

  async excerpt(file: string, line: number, context = 6): Promise<FileExcerpt> {
    const from = Math.max(1, line - context);
    const to = line + context;
    const vfp = this.model.vfp?.files.find((f) => f.file === file);
    if (vfp) return { file, start: from, lines: vfpLines(vfp.bytes, vfp.index, from, to), focus: line };
    const lines = await this.textLines(file);
    return { file, start: from, lines: lines.slice(from - 1, to), focus: line, totalLines: lines.length };
  }

  private async textLines(file: string): Promise<string[]> {
    const hit = this.textCache.get(file);
    if (hit) return hit;
    if (!this.model.files.some((f) => f.name === file)) throw new Error(`no file ${file} in this bundle`);
    const src = await this.open();
    try {
      const entry = src.entries.find((e) => e.path === this.model.source.root + file || (src.kind === 'file' && e.path === file));
      if (!entry) throw new Error(`no file ${file} in this bundle`);
      // Read whole and decoded to show a few lines: bounded, so a click on a huge log's line cannot
      // hold gigabytes (VFP dumps, kept as bytes, show excerpts at any size).
      if (entry.size > MAX_TEXT_EXCERPT) throw new Error(`${file} is ${formatBytes(entry.size)}: hnsight shows lines of text files up to ${formatBytes(MAX_TEXT_EXCERPT)}`);
      const text = decodeText(await entry.read(), file).text;
      const lines = text.split(/\r?\n/);
      if (this.textCache.size >= 6) this.textCache.delete(this.textCache.keys().next().value!);
      this.textCache.set(file, lines);
      return lines;
    } finally {
      await src.close();
    }
  }
}
