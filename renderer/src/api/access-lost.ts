// Browser mode: the server this tab was opened from no longer accepts it — it was restarted on the
// same port (a new token), or the tab was opened without the URL hnsight printed. Every call fails
// the same way from then on, so the app says it once, in words, instead of a bare "401" on whatever
// was clicked. http-api.ts reports it; the app shows it as its error screen.

type Listener = (message: string) => void;
const listeners = new Set<Listener>();

export function onAccessLost(l: Listener): () => void {
  listeners.add(l);
  return () => void listeners.delete(l);
}

export function reportAccessLost(message: string): void {
  for (const l of [...listeners]) l(message);
}

/**
 * The sentence the app shows: what happened to this tab, with the server's own reason (it knows
 * whether this page belongs to a server that is gone from this port or came without a token).
 */
export function accessLostMessage(serverText: string, where: string): string {
  const reason = serverText.trim().replace(/^./, (c) => c.toUpperCase()).replace(/\.?$/, '.');
  // A tab opened without the token was never accepted: "no longer" would send the user looking for a restart.
  const never = /opened without the token/i.test(serverText);
  return `The hnsight server at ${where} ${never ? 'does not accept' : 'no longer accepts'} this tab. ${reason}`;
}
