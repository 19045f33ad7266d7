// The ways to open a bundle, shared by the top bar, the empty state and the menu commands. In
// Electron the native dialogs answer pickBundle; in browser mode pickBundle returns null and the
// user types a path on the server's machine (or uploads a zip).
import { useCallback } from 'react';
import { api } from '../api/index.ts';
import { appStore } from '../store/app-store.ts';
import { errorMessage } from '../store/types.ts';

export function useOpenActions() {
  const pick = useCallback(async (kind: 'folder' | 'zip') => {
    const s = appStore.getState();
    if (!s.info?.nativeDialogs) {
      s.setOpenPathOpen(true);
      return;
    }
    try {
      const picked = await api.pickBundle({ kind });
      if (picked) await appStore.getState().open({ path: picked.path });
    } catch (e) {
      appStore.getState().toast('error', `Could not open the dialog: ${errorMessage(e)}`);
    }
  }, []);
  return {
    openFolder: useCallback(() => pick('folder'), [pick]),
    openZip: useCallback(() => pick('zip'), [pick]),
    openPath: useCallback((path: string) => appStore.getState().open({ path }), []),
    openDemo: useCallback((name: 'l2bridge-node' | 'overlay-node') => appStore.getState().open({ demo: name }), []),
    openFile: useCallback((file: File) => appStore.getState().open({ file }), []),
  };
}
