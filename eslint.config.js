import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'client/dist/', 'dist-bench/', '.data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through loadConfig() only (STYLE rule 5).' },
      ],
    },
  },
  // The web app: the rules of hooks (and the React Compiler's checks of purity) and accessibility of JSX.
  { files: ['web/src/**/*.{ts,tsx}'], ...reactHooks.configs.flat['recommended-latest'] },
  { files: ['web/src/**/*.tsx'], ...jsxA11y.flatConfigs.strict },
  // Plain Node scripts (no TypeScript): Node's globals.
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: globals.node } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
  {
    files: [
      'src/config.ts',
      'test/**',
      'bench/**',
      'scripts/**',
      'vitest.config.ts',
      'src/main.ts',
      'src/ledger/verify-cli.ts',
      'web/vite.config.mts',
      'web/playwright.config.ts',
      'web/e2e/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);
