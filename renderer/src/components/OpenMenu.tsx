// "Open ▾": folder / zip (native dialogs in Electron, the path dialog in browser mode), upload,
// Paste output…, Connect, Compare, demos, recent bundles and close. A menu button with arrow-key navigation and Esc.
import { useEffect, useRef, useState } from 'react';
import { ChevronDown, FolderOpen, FileArchive, Upload, History, FlaskConical, X, TerminalSquare, Plug, GitCompare, ClipboardPaste, Network } from 'lucide-react';
import { useApp } from '../store/app-store.ts';
import { useOpenActions } from '../hooks/useOpenActions.ts';
import { UploadInput, type UploadInputHandle } from './UploadInput.tsx';
import { openConnectDialog } from '../store/collect-store.ts';
import { clusterStore, useCluster } from '../cluster/cluster-store.ts';

export function OpenMenu() {
  const [open, setOpen] = useState(false);
  const info = useApp((s) => s.info);
  const recent = useApp((s) => s.recent);
  const bundle = useApp((s) => s.bundle);
  const closeBundle = useApp((s) => s.closeBundle);
  const setOpenPathOpen = useApp((s) => s.setOpenPathOpen);
  const openCompare = useApp((s) => s.openCompare);
  const openPaste = useApp((s) => s.openPaste);
  const { openFolder, openZip, openDemo, openPath } = useOpenActions();
  const menuRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const upload = useRef<UploadInputHandle>(null);
  const native = !!info?.nativeDialogs;
  const clusterOpen = useCluster((s) => !!s.opened);

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: MouseEvent) => {
      if (!menuRef.current?.contains(e.target as Node) && !buttonRef.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('mousedown', onDown);
    return () => window.removeEventListener('mousedown', onDown);
  }, [open]);

  const run = (fn: () => unknown) => () => {
    setOpen(false);
    // The menu item goes away with the menu: a dialog it opens gives the focus back to the Open button.
    buttonRef.current?.focus();
    void fn();
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      items[(i + 1) % items.length]?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      items[(i - 1 + items.length) % items.length]?.focus();
    } else if (e.key === 'Escape') {
      e.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
    }
  };

  return (
    <div className="menu-wrap">
      <button ref={buttonRef} type="button" className="btn" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="open-menu">
        <FolderOpen size={15} aria-hidden /> Open <ChevronDown size={14} aria-hidden />
      </button>
      <UploadInput ref={upload} />
      {open && (
        <div ref={menuRef} className="menu" role="menu" aria-label="Open a bundle" onKeyDown={onKeyDown}>
          {native ? (
            <>
              <button role="menuitem" type="button" onClick={run(openFolder)}>
                <FolderOpen size={15} aria-hidden /> Open folder…
              </button>
              <button role="menuitem" type="button" onClick={run(openZip)}>
                <FileArchive size={15} aria-hidden /> Open zip…
              </button>
            </>
          ) : (
            <>
              <button role="menuitem" type="button" onClick={run(() => setOpenPathOpen(true))}>
                <TerminalSquare size={15} aria-hidden /> Open path on this machine…
              </button>
              <button role="menuitem" type="button" onClick={run(() => upload.current?.pick())}>
                <Upload size={15} aria-hidden /> Upload a .zip or file…
              </button>
            </>
          )}
          <button role="menuitem" type="button" onClick={run(() => openPaste())} data-testid="open-paste">
            <ClipboardPaste size={15} aria-hidden /> Paste output… <kbd className="menu-kbd">Ctrl+Shift+V</kbd>
          </button>
          {info?.liveCollection && (
            <button role="menuitem" type="button" onClick={run(openConnectDialog)} data-testid="open-connect">
              <Plug size={15} aria-hidden /> Connect to node…
            </button>
          )}
          <button role="menuitem" type="button" onClick={run(openCompare)} data-testid="open-compare">
            <GitCompare size={15} aria-hidden /> Compare two bundles…
          </button>
          <button role="menuitem" type="button" onClick={run(() => clusterStore.getState().setDialogOpen(true))} data-testid="open-cluster">
            <Network size={15} aria-hidden /> Open a folder of bundles (a cluster)…
          </button>
          {!!info?.demos.length && <div className="menu-sep" role="separator" />}
          {info?.demos.map((d) => (
            <button key={d.name} role="menuitem" type="button" onClick={run(() => openDemo(d.name))}>
              <FlaskConical size={15} aria-hidden /> {d.title}
            </button>
          ))}
          {recent.length > 0 && <div className="menu-sep" role="separator" />}
          {recent.slice(0, 6).map((r) => (
            <button key={r.path} role="menuitem" type="button" onClick={run(() => openPath(r.path))} title={r.path}>
              <History size={15} aria-hidden /> <span className="ellipsis">{r.hostName ? `${r.hostName} — ` : ''}{r.path}</span>
            </button>
          ))}
          {bundle && (
            <>
              <div className="menu-sep" role="separator" />
              <button role="menuitem" type="button" onClick={run(closeBundle)}>
                <X size={15} aria-hidden /> Close bundle
              </button>
            </>
          )}
          {clusterOpen && (
            <button role="menuitem" type="button" onClick={run(() => clusterStore.getState().close())} data-testid="close-cluster">
              <X size={15} aria-hidden /> Close cluster
            </button>
          )}
        </div>
      )}
    </div>
  );
}
