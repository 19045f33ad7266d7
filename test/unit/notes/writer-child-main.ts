// Child process for the kill test: saves revision after revision of big notes as fast as it can,
// printing each revision it finished, until it is killed.
import { NotesStore } from '../../../services/notes/store.ts';

const [dataDir, hash] = process.argv.slice(2);
const store = new NotesStore(dataDir);
const bundle = { hash, location: '/bundles/node-a', hostName: 'node-a' };
let rev = (await store.get(bundle)).revision;
for (;;) {
  // About 600 KB per revision, so a kill often lands in the middle of a write.
  const text = `revision ${rev + 1} `.repeat(1_200);
  const notes = Array.from({ length: 40 }, (_, i) => ({ id: `n${i}`, target: { kind: 'report' as const, ref: 'report' }, text, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z' }));
  const r = await store.save(bundle, { title: `rev ${rev + 1}`, summary: text, notes, traces: [] }, rev);
  rev = r.revision;
  process.stdout.write(`${rev}\n`);
}
