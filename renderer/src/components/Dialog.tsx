// A modal dialog: Esc and the backdrop close it, focus moves in on open and back on close, Tab
// stays inside. Used by the palette, the open-path dialog, the excerpt viewer and the summary.
import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
  label: string;
  onClose(): void;
  children: ReactNode;
  className?: string;
  /** Where the dialog sits: centred, or near the top like a command palette. */
  placement?: 'center' | 'top';
  testId?: string;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

export function Dialog({ label, onClose, children, className = '', placement = 'center', testId }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const el = ref.current;
    if (el && !el.contains(document.activeElement)) (el.querySelector<HTMLElement>('[data-autofocus]') ?? el.querySelector<HTMLElement>(FOCUSABLE) ?? el).focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        closeRef.current();
      } else if (e.key === 'Tab' && el) {
        const items = Array.from(el.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((i) => i.offsetParent !== null);
        if (!items.length) return;
        const first = items[0];
        const last = items[items.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    el?.addEventListener('keydown', onKey);
    return () => {
      el?.removeEventListener('keydown', onKey);
      if (before && document.contains(before)) before.focus();
    };
  }, []);
  return (
    <div className={`backdrop ${placement}`} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={ref} role="dialog" aria-modal="true" aria-label={label} tabIndex={-1} className={`dialog ${className}`} data-testid={testId}>
        {children}
      </div>
    </div>
  );
}
