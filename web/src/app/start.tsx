import '@mantine/core/styles.css';
import './app.css';
import { createRoot } from 'react-dom/client';
import { App } from './App';

export function start(root: HTMLElement) {
  createRoot(root).render(<App />);
}
