// A hidden file input for browser mode's upload; callers open it through the handle. One file opens as
// a node; several picked together open as a cluster.
import { forwardRef, useImperativeHandle, useRef } from 'react';
import { useOpenActions } from '../hooks/useOpenActions.ts';
import { clusterStore } from '../cluster/cluster-store.ts';

export interface UploadInputHandle {
  pick(): void;
}

export const UploadInput = forwardRef<UploadInputHandle>(function UploadInput(_props, ref) {
  const input = useRef<HTMLInputElement>(null);
  const { openFile } = useOpenActions();
  useImperativeHandle(ref, () => ({ pick: () => input.current?.click() }), []);
  return (
    <input
      ref={input}
      type="file"
      className="sr-only"
      tabIndex={-1}
      aria-hidden
      accept=".zip,.txt,.json,.log"
      multiple
      data-testid="upload-input"
      onChange={(e) => {
        const files = Array.from(e.target.files ?? []);
        e.target.value = '';
        // Several files picked together are several nodes' bundles: one cluster.
        if (files.length > 1) void clusterStore.getState().openFiles(files);
        else if (files[0]) void openFile(files[0]);
      }}
    />
  );
});
