import '@mantine/core/styles.css';
import './app/app.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initI18n } from './app/i18n';
import { registerServiceWorker } from './app/sw-register';

void initI18n().then(() => {
  createRoot(document.getElementById('root')!).render(<App />);
  registerServiceWorker();
});
