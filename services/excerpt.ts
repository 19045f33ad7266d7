// Evidence excerpts: the lines around a file:line, read back from the bundle. VFP dumps stay in
// memory as bytes (a line → offset checkpoint table is built once per file); other files are read
// again from where the node came from (the folder or zip, the texts pasted) and decoded, and the last
// few are cached.
import { openBundle, type BundleSource } from './bundle/source.ts';
import { formatBytes } from './bundle/limits.ts';
import { decodeText } from '../parsers/text/decode.ts';
import type { NodeModel } from '../parsers/model/types.ts';
import type { FileExcerpt } from '../analysis/view-models/types.ts';

const CHECKPOINT = 4096;
/** Largest text file (other than a VFP dump) read again to show an excerpt. */
const MAX_TEXT_EXCERPT = 64 * 1024 * 1024;

class ByteLines {
  private checkpoints: number[] | undefined;
  constructor(private readonly bytes: Uint8Array) {}

  private build(): number[] {
    const cps = [0];
    let line = 1;
    let pos = 0;
    const b = this.bytes;
    while (true) {
      const nl = b.indexOf(10, pos);
      if (nl < 0) break;
      pos = nl + 1;
      line++;
      if (line % CHECKPOINT === 1) cps.push(pos);
    }
    return cps;
  }

  /** Lines [from, to] (1-based, inclusive) as strings. */
  slice(from: number, to: number): { lines: string[]; total?: number } {
    this.checkpoints ??= this.build();
    const cpIdx = Math.floor((from - 1) / CHECKPOINT);
    if (cpIdx >= this.checkpoints.length) return { lines: [] };
    let pos = this.checkpoints[cpIdx];
    let line = cpIdx * CHECKPOINT + 1;
    const b = this.bytes;
    while (line < from && pos < b.length) {
      const nl = b.indexOf(10, pos);
      if (nl < 0) return { lines: [] };
      pos = nl + 1;
      line++;
    }
    const out: string[] = [];
    const dec = new TextDecoder('latin1');
    while (line <= to && pos < b.length) {
      let nl = b.indexOf(10, pos);
      if (nl < 0) nl = b.length;
      out.push(dec.decode(b.subarray(pos, nl)).replace(/\r$/, ''));
      pos = nl + 1;
      line++;
    }
    return { lines: out };
  }
}

export class ExcerptReader {
  private byteLines = new Map<string, ByteLines>();
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
    if (vfp) {
      let bl = this.byteLines.get(file);
      if (!bl) {
        bl = new ByteLines(vfp.bytes);
        this.byteLines.set(file, bl);
      }
      return { file, start: from, lines: bl.slice(from, to).lines, focus: line };
    }
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
