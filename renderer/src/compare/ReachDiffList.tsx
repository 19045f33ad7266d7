// Compare's list of reachability changes, virtualised with @tanstack/react-virtual as the Services table
// is (renderer/src/services-table/ServicesGrid.tsx): only the lines in sight (and a few beyond) are in
// the DOM, so every change is listed — thousands stay a few dozen elements. Lines are grouped by source,
// then by destination kind, each group headed by its count. One tab stop: ↑/↓, Page Up/Down, Home/End
// move over the changes (headers are passed over), Enter opens both walks side by side.
import { useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowRight } from 'lucide-react';
import { changeKind, changeTarget, changeWords, sideLine, sideWords, type ReachChangeLine } from '../../../analysis/view-models/reach-diff-view.ts';
import type { ReachDiffLine } from '../../../analysis/view-models/reach-diff-lines.ts';

const LINE = 28;
/** The list's height at most: past it, it scrolls. */
const MAX_HEIGHT = 360;

interface Props {
  lines: ReachDiffLine[];
  /** How many changes the lines hold. */
  count: number;
  /** The change the keyboard is on (its `at`). */
  at: number;
  onMove(at: number): void;
  onOpen(c: ReachChangeLine): void;
}

export function ReachDiffList({ lines, count, at, onMove, onOpen }: Props) {
  const scroll = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({ count: lines.length, getScrollElement: () => scroll.current, estimateSize: () => LINE, overscan: 8 });
  // Where each change sits among the lines (headers in between).
  const lineOf = useMemo(() => {
    const index: number[] = [];
    lines.forEach((l, i) => {
      if (l.type === 'change') index[l.at] = i;
    });
    return index;
  }, [lines]);
  const cur = Math.max(0, Math.min(at, count - 1));

  const move = (i: number) => {
    const n = Math.max(0, Math.min(count - 1, i));
    onMove(n);
    const line = lineOf[n];
    if (line !== undefined) rows.scrollToIndex(line, { align: 'auto' });
  };
  const page = Math.max(1, Math.floor((scroll.current?.clientHeight ?? MAX_HEIGHT) / LINE) - 2);
  const onKeyDown = (e: React.KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(cur + 1),
      ArrowUp: () => move(cur - 1),
      Home: () => move(0),
      End: () => move(count - 1),
      PageDown: () => move(cur + page),
      PageUp: () => move(cur - page),
      Enter: () => {
        const l = lines[lineOf[cur] ?? -1];
        if (l?.type === 'change') onOpen(l.change);
      },
    };
    const f = keys[e.key];
    if (!f) return;
    e.preventDefault();
    f();
  };

  return (
    <div
      ref={scroll}
      className="reach-diff-list"
      role="listbox"
      aria-label="Packet classes whose outcome changed, by source and destination: Enter opens both walks"
      tabIndex={0}
      aria-activedescendant={count ? `reach-change-${cur}` : undefined}
      onKeyDown={onKeyDown}
      style={{ height: Math.min(rows.getTotalSize(), MAX_HEIGHT) + 2 }}
      data-testid="reach-diff-list"
    >
      <div className="reach-diff-canvas" style={{ height: rows.getTotalSize() }}>
        {rows.getVirtualItems().map((v) => {
          const l = lines[v.index];
          if (!l) return null;
          const style = { top: v.start, height: v.size };
          if (l.type === 'source')
            return (
              <div key={l.key} role="presentation" className="reach-diff-head source" style={style} data-testid="reach-diff-source">
                <b>From {l.title}</b> <span className="muted">{l.count.toLocaleString('en-US')} changed</span>
              </div>
            );
          if (l.type === 'destination')
            return (
              <div key={l.key} role="presentation" className="reach-diff-head destination" style={style} data-testid="reach-diff-destination" data-kind={l.kind}>
                {l.title} <span className="muted">{l.count.toLocaleString('en-US')}</span>
              </div>
            );
          const c = l.change;
          const current = l.at === cur;
          return (
            <div
              key={l.key}
              id={`reach-change-${l.at}`}
              role="option"
              aria-selected={current}
              aria-label={changeWords(c)}
              data-index={l.at}
              data-kind={changeKind(c)}
              className={`reach-change ${current ? 'current' : ''} ${changeKind(c)}`}
              style={style}
              onClick={() => {
                onMove(l.at);
                onOpen(c);
              }}
              data-testid="reach-change"
            >
              <span className="reach-change-where">
                <ArrowRight size={12} aria-hidden />
                <span className="mono">{changeTarget(c)}</span>
                {c.to?.name && c.to.kind !== 'node' && <span className="muted reach-change-name">{c.to.name}</span>}
              </span>
              <span className={`reach-change-side a v-${c.before.verdict.replace(/ /g, '-')}`} title={`A · before: ${sideWords(c.before, c.after)}`}>
                {sideLine(c.before, c.after)}
              </span>
              <ArrowRight size={12} aria-hidden />
              <span className={`reach-change-side b v-${c.after.verdict.replace(/ /g, '-')}`} title={`B · after: ${sideWords(c.after, c.before)}`}>
                {sideLine(c.after, c.before)}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
