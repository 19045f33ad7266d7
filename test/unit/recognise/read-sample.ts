// Reads one or more saved outputs the way `hnsight inspect a b …` does (pure path: parse each file,
// assemble one model), for the recognition tests.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBundleFile, type ParsedFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { countObjects, inspectDocument, type InspectCounts, type InspectDocument } from '../../../analysis/inspect.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The shared corpus of real outputs (DESIGN: tests read it from `../shared/corpus` beside the
 * repository). A worktree sits one level deeper, so its parent's parent is tried too; HNSIGHT_CORPUS
 * names another place. Undefined when it is nowhere (the corpus test then fails, it does not skip).
 */
export function corpusDir(): string | undefined {
  const candidates = [process.env.HNSIGHT_CORPUS, path.join(repo, '../shared/corpus'), path.join(repo, '../../shared/corpus')];
  return candidates.find((c): c is string => !!c && existsSync(path.join(c, 'README.md')));
}

export interface Read {
  parsed: ParsedFile[];
  model: NodeModel;
  counts: InspectCounts;
  doc: InspectDocument;
}

export function readFiles(files: { name: string; path?: string; text?: string }[]): Read {
  const parsed = files.map((f) => parseBundleFile(f.name, f.text !== undefined ? new TextEncoder().encode(f.text) : new Uint8Array(readFileSync(f.path!))));
  const model = assembleModel(parsed, { location: files.map((f) => f.name).join(' + '), kind: 'file', root: '' });
  return { parsed, model, counts: countObjects(model), doc: inspectDocument(model) };
}

export function readOne(filePath: string, name = path.basename(filePath)): Read & { p: ParsedFile } {
  const r = readFiles([{ name, path: filePath }]);
  return { ...r, p: r.parsed[0] };
}
