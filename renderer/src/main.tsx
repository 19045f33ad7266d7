import { createRoot } from 'react-dom/client';
import { api } from './api/index.ts';

function App() {
  return <p>hnsight</p>;
}

const root = document.getElementById('root')!;
createRoot(root).render(<App />);
api.info({}).then(() => root.setAttribute('data-app-state', 'ready')).catch(() => root.setAttribute('data-app-state', 'error'));
