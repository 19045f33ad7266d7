// Ctrl+Shift+V: opens Paste output… and fills it from the clipboard when the browser lets the page
// read it (browser mode asks once; the desktop app reads it in its menu instead). When it may not,
// the dialog stays open and empty with the caret in it, so Ctrl+V pastes.
import { appStore } from '../store/app-store.ts';

export function pasteFromClipboard(): void {
  appStore.getState().openPaste();
  const read = typeof navigator !== 'undefined' ? navigator.clipboard?.readText?.bind(navigator.clipboard) : undefined;
  if (!read) return;
  read().then(
    (text) => {
      const p = appStore.getState().paste;
      // Only into the dialog this opened, and never over what the user typed meanwhile.
      if (text && p && !p.text) appStore.getState().setPasteText(text);
    },
    () => undefined,
  );
}
