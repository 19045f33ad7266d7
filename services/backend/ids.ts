// Ids for jobs and bundles: unique within this process and never reused, so a client holding an old
// id gets "not found" rather than someone else's job.
let seq = 0;

export function nextId(prefix: string): string {
  return `${prefix}-${++seq}-${Date.now().toString(36)}`;
}
