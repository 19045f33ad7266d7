// The backend's job events (contract/events.ts), fanned out to every transport that listens: the
// Electron shell forwards them over IPC, the browser-mode server as Server-Sent Events. Progress
// events of one job are coalesced (at most one per interval) so a fast loader cannot flood a slow
// client; a state change (done, error…) always goes out at once.
import type { ApiEvent, ApiEventListener } from '../../contract/index.ts';

const PROGRESS_INTERVAL_MS = 100;

export class EventBus {
  private listeners = new Set<ApiEventListener>();
  private pending = new Map<string, { event: ApiEvent; timer: ReturnType<typeof setTimeout> }>();
  private lastSent = new Map<string, number>();

  on(listener: ApiEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** A job's state changed (emitted now). */
  emit(event: ApiEvent): void {
    const key = `${event.type}:${event.job.jobId}`;
    const p = this.pending.get(key);
    if (p) {
      clearTimeout(p.timer);
      this.pending.delete(key);
    }
    this.lastSent.set(key, Date.now());
    this.send(event);
  }

  /** A job made progress (emitted now, or with the next interval when one was just sent). */
  progress(event: ApiEvent): void {
    const key = `${event.type}:${event.job.jobId}`;
    const since = Date.now() - (this.lastSent.get(key) ?? 0);
    if (since >= PROGRESS_INTERVAL_MS && !this.pending.has(key)) return this.emit(event);
    const p = this.pending.get(key);
    if (p) {
      p.event = event;
      return;
    }
    const timer = setTimeout(() => {
      const q = this.pending.get(key);
      this.pending.delete(key);
      if (q) this.emit(q.event);
    }, Math.max(0, PROGRESS_INTERVAL_MS - since));
    this.pending.set(key, { event, timer });
  }

  /** The job is gone: no event for it is pending any more. */
  forget(type: ApiEvent['type'], jobId: string): void {
    const key = `${type}:${jobId}`;
    const p = this.pending.get(key);
    if (p) clearTimeout(p.timer);
    this.pending.delete(key);
    this.lastSent.delete(key);
  }

  private send(event: ApiEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // One listener failing (a closed window, a dropped stream) must not stop the others.
      }
    }
  }
}
