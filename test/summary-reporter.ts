// Ends the test output with one plain line, "N passed, N failed[, N skipped]", that any CI reader
// understands whatever the runner's own (colourised) summary looks like.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but is a failure all the same.
      if (m.state() === 'failed' && ![...m.children.allTests()].some((t) => t.result().state === 'failed')) failed++;
    }
    // Under `npm test` (tools/check.mjs) the line comes last, after the typecheck's and lint's results,
    // which count in it: the counts go to the file it names instead.
    const file = process.env.HNSIGHT_SUMMARY_FILE;
    if (file) writeFileSync(file, JSON.stringify({ passed, failed, skipped }));
    else process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
