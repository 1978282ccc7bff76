// Mantine's styles for the first screens only (sign-in, home, the shell, the error pages), in Mantine's order; the
// whole sheet (258 KB, 37 KB gzip) comes with the other screens (mantine-styles.ts, router.tsx). Parsing it and
// matching the page against it was blocking time before the first screen on a slow phone (Lighthouse). The `.layer`
// forms put Mantine's rules in one cascade layer, so the whole sheet loaded later overrides nothing of app.css.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Container.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Title.layer.css';
import './app.css';
import { createRoot } from 'react-dom/client';
import { App } from './App';

export function start(root: HTMLElement) {
  // The splash stays on screen, out of the app's root, and the root stays hidden until the first screen has drawn,
  // all its parts (later.tsx).
  const splash = document.getElementById('splash');
  if (splash) root.before(splash);
  root.hidden = true;
  createRoot(root).render(<App />);
}
