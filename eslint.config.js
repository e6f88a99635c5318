import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/src/gen/**', '**/src/generated/**', '**/node_modules/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { regexp },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Patterns run on what users send: none may backtrack super-linearly, or one crafted input could
      // hold a process's CPU for seconds (ReDoS).
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
);
