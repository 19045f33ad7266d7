// Reads one or more saved outputs the way `hnsight inspect a b …` does (pure path: parse each file,
// assemble one model), for the recognition tests.
import { readFileSync } from 'node:fs';
import { CORPUS } from '../../helpers/corpus.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { type ParsedFile } from '../../../parsers/bundle/parsed-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { countObjects, inspectDocument, type InspectCounts, type InspectDocument } from '../../../analysis/inspect.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The shared corpus of real outputs (test/helpers/corpus.ts); undefined when it is absent. */
export function corpusDir(): string | undefined {
  return CORPUS;
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
