// Drag and drop onto the window. Electron gives a dropped item's path (a folder too); a browser page
// only gets file bytes, so a zip or single file is uploaded and a folder is refused with advice. A
// dropped text (not a file: a selection dragged from a ticket or a browser) opens Paste output… with
// it; dropped into a text field it just goes into the field. Several files dropped at once are the
// bundles of several nodes: they open together as a cluster.
import { useEffect, useState } from 'react';
import { appStore } from '../store/app-store.ts';
import { isElectron } from '../api/index.ts';
import { clusterStore } from '../cluster/cluster-store.ts';

/** What is being dragged over the window: files to open, or a text to paste. */
export type DropKind = 'files' | 'text';

function isFolderEntry(item: DataTransferItem): boolean {
  const entry = (item as DataTransferItem & { webkitGetAsEntry?: () => { isDirectory: boolean } | null }).webkitGetAsEntry?.();
  return !!entry?.isDirectory;
}

function dropKind(e: DragEvent): DropKind | undefined {
  const types = e.dataTransfer ? Array.from(e.dataTransfer.types) : [];
  if (types.includes('Files')) return 'files';
  if (types.includes('text/plain')) return 'text';
  return undefined;
}

function isField(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.isContentEditable);
}

export function useDropOpen(): DropKind | undefined {
  const [over, setOver] = useState<DropKind | undefined>();
  useEffect(() => {
    let depth = 0;
    const onEnter = (e: DragEvent) => {
      const kind = dropKind(e);
      if (!kind) return;
      e.preventDefault();
      depth++;
      setOver(kind);
    };
    const onOver = (e: DragEvent) => {
      if (!dropKind(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = (e: DragEvent) => {
      if (!dropKind(e)) return;
      depth = Math.max(0, depth - 1);
      if (!depth) setOver(undefined);
    };
    const onDrop = (e: DragEvent) => {
      const kind = dropKind(e);
      if (!kind || !e.dataTransfer) return;
      depth = 0;
      setOver(undefined);
      const s = appStore.getState();
      if (kind === 'text') {
        // Into a field (the paste dialog's own text box): the browser inserts it where it was dropped.
        if (isField(e.target)) return;
        e.preventDefault();
        const text = e.dataTransfer.getData('text/plain');
        if (text) s.openPaste(text);
        return;
      }
      e.preventDefault();
      // Several files at once: one node each, opened together as a cluster (renderer/src/cluster).
      if (e.dataTransfer.files.length > 1) {
        const files = Array.from(e.dataTransfer.files);
        if (!isElectron && Array.from(e.dataTransfer.items).some(isFolderEntry)) {
          s.toast('error', 'Folders cannot be uploaded from a browser. Drop the bundles as .zip files, or open their folder with Open ▸ Open a folder of bundles (a cluster)….');
          return;
        }
        void clusterStore.getState().openFiles(files);
        return;
      }
      const file = e.dataTransfer.files[0];
      const item = e.dataTransfer.items[0];
      if (!file) return;
      // The desktop app opens a dropped folder or file by its path; a browser can only upload a file.
      if (!isElectron && item && isFolderEntry(item)) {
        s.toast('error', `A folder cannot be uploaded from a browser. Zip "${file.name}" and drop the .zip, or type its path with Open ▸ Open path on this machine.`);
        return;
      }
      void s.open({ file });
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, []);
  return over;
}
