// A modal dialog: Esc and the backdrop close it, focus moves in on open and back to where it was on
// close, Tab stays inside. Every dialog of the app is one (palette, open path, excerpt, summary,
// connect, export, compare, paste, keyboard map). Esc is heard on the document, so it closes the top
// dialog wherever the focus is — on a button that became disabled, on the page, or in the export
// preview's frame (which would otherwise keep the keys to itself).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { dialogStack } from './dialog-stack.ts';

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
  // Where the focus was when the dialog opened, read before anything inside it takes the focus.
  const [before] = useState(() => (typeof document !== 'undefined' ? (document.activeElement as HTMLElement | null) : null));
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const entry = { el, close: () => closeRef.current() };
    const remove = dialogStack.push(entry);
    if (!el.contains(document.activeElement)) (el.querySelector<HTMLElement>('[data-autofocus]') ?? el.querySelector<HTMLElement>(FOCUSABLE) ?? el).focus();
    const onEscape = (e: KeyboardEvent) => {
      // A field that handles Esc itself (a note being edited) has said so; only the top dialog closes.
      if (e.key !== 'Escape' || e.defaultPrevented || dialogStack.top() !== entry) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      entry.close();
    };
    const onTab = (e: KeyboardEvent) => {
      if (e.key !== 'Tab') return;
      const items = Array.from(el.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((i) => i.offsetParent !== null);
      if (!items.length) return;
      const first = items[0];
      const last = items[items.length - 1];
      // Focus on the dialog's own box (where it goes back after a frame inside took it) or anywhere
      // not in the list: the next Tab goes to the first control, Shift+Tab to the last, never behind.
      if (!items.includes(document.activeElement as HTMLElement)) {
        e.preventDefault();
        (e.shiftKey ? last : first).focus();
      } else if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    };
    // A frame inside the dialog (the report preview) that took the focus would keep Esc from us: the
    // dialog takes it back (the frame still scrolls with the wheel).
    const onBlur = () =>
      setTimeout(() => {
        const a = document.activeElement;
        if (a instanceof HTMLIFrameElement && el.contains(a) && dialogStack.top() === entry) el.focus();
      }, 0);
    document.addEventListener('keydown', onEscape);
    el.addEventListener('keydown', onTab);
    window.addEventListener('blur', onBlur);
    return () => {
      remove();
      document.removeEventListener('keydown', onEscape);
      el.removeEventListener('keydown', onTab);
      window.removeEventListener('blur', onBlur);
      // Back where it was: the button that opened the dialog, or the dialog under this one.
      const top = dialogStack.top();
      if (before && document.contains(before) && (!top || top.el.contains(before))) before.focus();
      else if (top && !top.el.contains(document.activeElement)) top.el.focus();
    };
  }, [before]);
  return (
    <div className={`backdrop ${placement}`} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={ref} role="dialog" aria-modal="true" aria-label={label} tabIndex={-1} className={`dialog ${className}`} data-testid={testId}>
        {children}
      </div>
    </div>
  );
}
