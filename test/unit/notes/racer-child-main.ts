// Child process for the two-process test: reads the notes and saves the next revision, `count` times,
// as fast as it can; prints each revision it was told it saved, and "stale" for each refusal.
import { NotesStore, StaleNotesError } from '../../../services/notes/store.ts';

const [dataDir, hash, count, who, startAt] = process.argv.slice(2);
// Both writers start at the same moment, whatever their start-up took.
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
const store = new NotesStore(dataDir);
const bundle = { hash, location: '/bundles/node-a', hostName: 'node-a', beside: false };
for (let i = 0; i < Number(count); i++) {
  const rev = (await store.get(bundle)).revision;
  try {
    const r = await store.save(bundle, { title: `${who} ${i}`, summary: `${who} saved on revision ${rev}`, notes: [], traces: [] }, rev);
    process.stdout.write(`${r.revision}\n`);
  } catch (e) {
    if (!(e instanceof StaleNotesError)) throw e;
    process.stdout.write('stale\n');
  }
}
