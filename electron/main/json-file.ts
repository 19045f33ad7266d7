// Small JSON files in userData (window state), written with the one atomic writer of the services.
import { readFileSync } from 'node:fs';
import { writeFileAtomic, writeFileAtomicSync } from '../../services/atomic-write.ts';

const text = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

export function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  return writeFileAtomic(file, text(value));
}

/** Synchronous twin, for the window's `close` handler (the process may quit right after). */
export function writeJsonAtomicSync(file: string, value: unknown): void {
  writeFileAtomicSync(file, text(value));
}

/** The parsed file, or undefined when it is missing or not JSON. */
export function readJsonSync(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
