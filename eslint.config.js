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
  {
    // What a role may do is decided in @quire/policy's tables only: elsewhere, ask `allow` (tests
    // may compare the roles they expect).
    files: ['**/src/**/*.{ts,tsx}'],
    ignores: ['packages/policy/**', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@quire/policy/*'], message: 'Import @quire/policy itself: its rankings are its own.' }] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "BinaryExpression[operator=/^[!=]==?$/] > MemberExpression[object.name='Role'][property.name=/^ROLE_/]",
          message: 'Compare no roles: ask @quire/policy\'s allow() (isRole() for "a role at all").',
        },
        {
          selector: "SwitchCase > MemberExpression.test[object.name='Role'][property.name=/^ROLE_/]",
          message: "Compare no roles: ask @quire/policy's allow().",
        },
      ],
    },
  },
);
