// What the terminal shows of an error nobody expected: its message and where it was thrown, enough for a
// bug report, never the megabyte a message can carry when it quotes the input (a parser's error on a
// 1 MB line, a stack of ten thousand frames from a runaway recursion).

const MAX_MESSAGE = 2000;
const MAX_FRAMES = 12;

/** The error's message (cut at 2,000 characters) and its first 12 stack frames; what is cut is said. */
export function failureText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const cut = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}… (${message.length - MAX_MESSAGE} more characters)` : message;
  const head = e instanceof Error ? `${e.name}: ${cut}` : cut;
  const stack = e instanceof Error && typeof e.stack === 'string' ? e.stack : '';
  // V8 stacks start with the message, then "    at …" lines.
  const frames = stack.split('\n').filter((l) => /^\s+at /.test(l));
  const shown = frames.slice(0, MAX_FRAMES).map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l));
  if (frames.length > MAX_FRAMES) shown.push(`    … ${frames.length - MAX_FRAMES} more frames`);
  return [head, ...shown].join('\n');
}
