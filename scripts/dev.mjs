// `npm run dev`: the API in sandbox mode (tsx, port 3000) and Vite's dev server for the web app with hot reload
// (http://localhost:5173, proxying the API's paths to port 3000). Ctrl-C stops both.
import { spawn } from 'node:child_process';
import process from 'node:process';

const children = [
  spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/main.ts', '--sandbox'], {
    stdio: 'inherit',
    // The app runs on Vite's origin here, so the top-up's return page is there too.
    env: { ...process.env, WEB_DIR: '', TOPUP_CALLBACK_ORIGINS: process.env.TOPUP_CALLBACK_ORIGINS ?? 'http://localhost:5173' },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--config', 'web/vite.config.mts'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => (stop(), (process.exitCode ||= code ?? 0)));
