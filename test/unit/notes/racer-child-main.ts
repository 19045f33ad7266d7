// Child process for the two-process test: reads the notes and saves the next revision, `count` times,
// as fast as it can, from the test's "go" on; prints "ready" first, then each revision it was told it
// saved, and "stale" for each refusal.
import { NotesStore, StaleNotesError } from '../../../services/notes/store.ts';

const [dataDir, hash, count, who] = process.argv.slice(2);
const store = new NotesStore(dataDir);
const bundle = { hash, location: '/bundles/node-a', hostName: 'node-a', beside: false };
// Both writers start at the same moment, whatever their start-up took: each says it is ready and
// waits for the test's "go", which the test sends to both once both are ready.
process.stdout.write('ready\n');
await new Promise((r) => process.stdin.once('data', r));
process.stdin.destroy();
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
