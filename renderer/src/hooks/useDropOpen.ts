// Drag and drop onto the window. Electron gives a dropped item's path (a folder too); a browser page
// only gets file bytes, so a zip or single file is uploaded and a folder is refused with advice.
import { useEffect, useState } from 'react';
import { appStore } from '../store/app-store.ts';
import { isElectron } from '../api/index.ts';

function isFolderEntry(item: DataTransferItem): boolean {
  const entry = (item as DataTransferItem & { webkitGetAsEntry?: () => { isDirectory: boolean } | null }).webkitGetAsEntry?.();
  return !!entry?.isDirectory;
}

export function useDropOpen(): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
    const onEnter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setOver(true);
    };
    const onOver = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (!depth) setOver(false);
    };
    const onDrop = (e: DragEvent) => {
      if (!hasFiles(e) || !e.dataTransfer) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      const s = appStore.getState();
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
