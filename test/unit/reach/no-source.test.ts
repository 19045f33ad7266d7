// A pasted hnsdiag listing of remote endpoints only (sig-windows-tools#168, ../shared/corpus) has no
// source to walk from: the CLI's `reach` and the app's Reachability rows say what the input lacks,
// in the same words, instead of an empty table or "No cell matches this filter" (review, session 11).
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { reachEndsOf } from '../../../services/backend/reach-ends.ts';
import { noSourceNote } from '../../../analysis/reach/no-source.ts';
import { CORPUS, corpusBytes } from '../../helpers/corpus.ts';

describe.skipIf(!CORPUS)('a node with no source to walk from', () => {
  const m = assembleModel([parseBundleFile('hnsdiag.txt', corpusBytes('hnsdiag-list-all__kubernetes-sigs-sig-windows-tools-issue-168.txt'))], { location: 'corpus', kind: 'folder', root: '' });

  it('has a note naming what it lacks', () => {
    const r = reachEndsOf(m);
    expect(r.sources).toEqual([]);
    expect(noSourceNote(m)).toMatch(/^insufficient information: the input has no source to walk from/);
    // The app's rows come with it, and point to the app's own way to walk a packet.
    expect(r.ends.notes?.[0]).toContain(noSourceNote(m)!);
    expect(r.ends.notes?.[0]).toMatch(/walk panel/);
  });
});

describe('a node with sources', () => {
  it('has no such note', async () => {
    const m = await loadBundle(path.resolve('assets/demo/l2bridge-node'));
    expect(noSourceNote(m)).toBeUndefined();
    expect(reachEndsOf(m).ends.notes).toBeUndefined();
  });
});
