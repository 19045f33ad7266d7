// Entry point: styles (React Flow's base first so ours override it), then the app.
import '@xyflow/react/dist/style.css';
import './styles/theme.css';
import './styles/base.css';
import './styles/app.css';
import './styles/graph.css';
import './styles/inspector.css';
import './styles/walk.css';
import './styles/report.css';
import './styles/cluster.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
// Set before the first paint so a dark OS never flashes a light page.
document.documentElement.dataset.theme = (() => {
  try {
    const t = localStorage.getItem('hnsight.theme');
    if (t === 'light' || t === 'dark') return t;
  } catch {
    // storage unavailable: follow the OS
  }
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
})();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
