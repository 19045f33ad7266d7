// The two threads of a load share a big VFP dump's scan (issue 27): the parse worker scans from the
// start; the main thread, once the bundle's other files and the dump's line table are done, claims the
// second half of what the worker has not reached and scans it (parsers/vfp/scan-split.ts says how the
// two parts meet at a port boundary). The main thread's part goes to the worker over a channel of its
// own, which the worker reads synchronously in the middle of its scan (receiveMessageOnPort); a part
// that fails is answered with nothing, and the worker scans on alone.
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { FileBytes } from './file-bytes.ts';
import { OffsetBytes } from '../../parsers/vfp/byte-source.ts';
import { claimSplit, JOINED, newSplitControl, type ScanTail, type TailScanOptions, type VfpSplit } from '../../parsers/vfp/scan-split.ts';
import { TailScan } from '../../parsers/vfp/scan-tail.ts';

/** Not worth a split: what is left to scan is below this. */
const MIN_SPLIT_BYTES = 16 << 20;
/** The main thread yields between steps of this many bytes (progress events, cancellation). */
const STEP_BYTES = 16 << 20;
/** How long the worker waits for the main thread's part before it scans on alone. */
const WAIT_MS = 10 * 60_000;

/** What the worker gets in its request: the control cell and its end of the channel. */
export interface SplitHandle {
  ctl: Int32Array;
  port: MessagePort;
}

type ToWorker = { tail: ScanTail | null };
type ToMain = { opts: TailScanOptions };

/** The main thread's side of one dump's split. */
export class SplitScan {
  readonly ctl = newSplitControl();
  readonly #channel = new MessageChannel();
  /** Sent in the worker's request (transferred). */
  readonly handle: SplitHandle = { ctl: this.ctl, port: this.#channel.port2 };
  /** The byte the main thread claimed, -1 when it did not (too little left, or the worker was done). */
  claimed = -1;
  /** Where the part handed to the worker starts (a port boundary); -1 when none was found or handed. */
  tailFrom = -1;

  /**
   * Claims and scans the main thread's part of the dump at `path` (from `offset`: 3 past a UTF-8 BOM,
   * as the worker reads it), then hands it to the worker. Always answers the worker once it claimed.
   * otherWork: what the main thread still does after its part, as bytes of scanning (its share is smaller).
   */
  async run(path: string, size: number, name: string, offset: number, cancelled: () => void, opts: { otherWork?: number; claimed?: number } = {}): Promise<void> {
    const at = opts.claimed ?? claimSplit(this.ctl, size - offset, MIN_SPLIT_BYTES, opts.otherWork ?? 0);
    if (at < 0) return;
    this.claimed = at;
    let tail: ScanTail | null = null;
    let file: FileBytes | undefined;
    try {
      // The worker posted its scan's options before its first chunk (a claim made by claimSplit finds
      // them; one made before the worker began waits for them).
      let m = receiveMessageOnPort(this.#channel.port1)?.message as ToMain | undefined;
      for (let k = 0; !m && k < 3000 && Atomics.load(this.ctl, 0) < 0; k++) {
        await new Promise((r) => setTimeout(r, 10));
        cancelled();
        m = receiveMessageOnPort(this.#channel.port1)?.message as ToMain | undefined;
      }
      if (!m?.opts) return;
      file = new FileBytes(path, size, name);
      const scan = new TailScan(offset ? new OffsetBytes(file, offset) : file, at, m.opts);
      while (!scan.step(STEP_BYTES)) {
        await new Promise((r) => setImmediate(r));
        cancelled();
      }
      tail = scan.result();
      this.tailFrom = tail.from;
    } finally {
      file?.close();
      const msg: ToWorker = { tail };
      const transfer = tail ? [tail.groupByte.buffer, tail.groupPort.buffer, tail.ruleByte.buffer, tail.rulePort.buffer, tail.ruleName.buffer] : [];
      this.#channel.port1.postMessage(msg, transfer as ArrayBuffer[]);
      Atomics.add(this.ctl, 1, 1);
      Atomics.notify(this.ctl, 1);
    }
  }

  /** Whether the worker joined the main thread's part (set by the worker's scan). */
  get joined(): boolean {
    return Atomics.load(this.ctl, JOINED) === 1;
  }

  close(): void {
    this.#channel.port1.close();
  }
}

/** The worker's side: the hooks its scan calls (parsers/vfp/scan.ts). */
export function workerSplit(h: SplitHandle): VfpSplit {
  return {
    ctl: h.ctl,
    begin: (opts) => {
      const m: ToMain = { opts };
      h.port.postMessage(m);
    },
    tail: () => {
      const until = Date.now() + WAIT_MS;
      for (;;) {
        const m = receiveMessageOnPort(h.port)?.message as ToWorker | undefined;
        if (m) return m.tail ?? undefined;
        const seen = Atomics.load(h.ctl, 1);
        if (Date.now() > until) return undefined;
        // Woken when the main thread has posted; the timeout only guards a lost wake-up.
        if (seen === 0) Atomics.wait(h.ctl, 1, 0, 200);
        else Atomics.wait(h.ctl, 1, seen, 5);
      }
    },
  };
}
