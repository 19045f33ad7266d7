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
    // Rolldown warns (PLUGIN_TIMINGS) when a plugin takes a large share of the build: on a machine
    // shared by several builds that is the machine's load, not a fault, and its raw text with colour
    // codes landed in `npm start`'s and the tests' output. Every other warning stays.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  worker: { format: 'es' },
});
