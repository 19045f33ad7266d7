// What the topology's camera is doing, kept apart from React and React Flow so the bookkeeping is
// unit-tested: moving (a move is decided and not carried out yet, or under way) or still; why it
// last moved and which nodes that move brought into view; and where a move under way ends (so the
// next decision — is the current hop on screen? — is taken against where the camera is going, not a
// frame of its flight). Tests and screenshots wait on this instead of sleeping.
//
// Moves are decided (begin) and carried out (run) later, possibly out of order (a deferred fit can
// run after a hop's immediate follow); the last one carried out is what the camera did. A new move
// interrupts the one under way (d3-zoom), whose end then never comes: only the latest move's end
// counts. A move the user begins (a press on the canvas, the wheel) ends the move under way.
import { moveTarget, type CameraMove, type Screen, type Viewport } from './camera-moves.ts';

export interface CameraStatus {
  state: 'moving' | 'still';
  /** Why the camera last moved: place, fit, walk, hop:<n>, finding:<key>, focus:<node id>, user. */
  reason?: string;
  /** Visible node ids the last move brought into view (empty when it cannot promise any). */
  shows: string[];
  /** The view is still the one a fit of the whole graph made: no move since has changed it (a move
   *  that stays, such as a keyboard focus already in view, keeps it). A new canvas size fits again. */
  fitted: boolean;
}

/** Reasons of a move that shows the whole graph. */
const FITS = new Set(['place', 'fit', 'refit']);

export class CameraTracker {
  private last: { reason?: string; shows: string[] } = { shows: [] };
  private decided = 0;
  /** Decided, not carried out yet: ticket → reason. */
  private readonly pending = new Map<number, string>();
  private moving: { seq: number; target?: Viewport } | undefined;
  private moveSeq = 0;
  private fitted = false;

  /** A move is decided for `reason`; the camera counts as moving until run() carries it out. */
  begin(reason: string): number {
    const ticket = ++this.decided;
    this.pending.set(ticket, reason);
    return ticket;
  }

  /**
   * The decided move is due. Returns the number of the move to carry out (pass it to ended() when it
   * is over), or undefined when there is nothing to carry out (no move, or 'stay').
   */
  run(ticket: number, move: CameraMove | undefined, screen: Screen): number | undefined {
    const reason = this.pending.get(ticket);
    if (reason === undefined) return undefined;
    this.pending.delete(ticket);
    this.last = { reason, shows: move?.shows ?? [] };
    if (FITS.has(reason)) this.fitted = !!move;
    else if (move && move.kind !== 'stay') this.fitted = false;
    if (!move || move.kind === 'stay') return undefined;
    const seq = ++this.moveSeq;
    this.moving = { seq, target: moveTarget(move, screen) };
    return seq;
  }

  /** Move `seq` reached its end. Returns whether it was the move under way. */
  ended(seq: number): boolean {
    if (this.moving?.seq !== seq) return false;
    this.moving = undefined;
    return true;
  }

  /** The user began moving the camera (d3-zoom interrupts the move under way): that move is over.
   *  Moves decided and not carried out yet still happen, as they would have. */
  userMoved(): void {
    this.moving = undefined;
    this.last = { reason: 'user', shows: [] };
    this.fitted = false;
  }

  /** Where the move under way ends, when that is known (not for a fit-all). */
  target(): Viewport | undefined {
    return this.moving?.target;
  }

  status(): CameraStatus {
    return { state: this.pending.size || this.moving ? 'moving' : 'still', reason: this.last.reason, shows: this.last.shows, fitted: this.fitted };
  }
}
