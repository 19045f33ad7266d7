import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is one static build loaded from file:// by Electron and from 127.0.0.1 by browser
// mode, so every URL in it is relative and nothing is fetched from elsewhere.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 4000,
  },
  worker: { format: 'es' },
});
