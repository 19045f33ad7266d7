// A hidden file input for browser mode's upload; callers open it through the handle.
import { forwardRef, useImperativeHandle, useRef } from 'react';
import { useOpenActions } from '../hooks/useOpenActions.ts';

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
      onChange={(e) => {
        const f = e.target.files?.[0];
        e.target.value = '';
        if (f) void openFile(f);
      }}
    />
  );
});
