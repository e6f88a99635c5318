import { describe, expect, it } from 'vitest';
import { isWritablePath } from './paths.ts';

describe('isWritablePath', () => {
  it('takes relative paths inside the folder only', () => {
    for (const ok of ['README.md', 'docs/.gitbook/assets/a.png', 'docs/a/b.md', 'docs/.gitignore-notes.md'])
      expect(isWritablePath(ok, ok.startsWith('docs') ? 'docs' : '')).toBe(true);
    for (const bad of ['../x', 'docs/../../x', '/etc/passwd', '.git/hooks/post-checkout', 'docs/.GIT/config', 'docs/a//b', 'docs/./a', 'docs\\..\\x', 'a\0b', '', 'other/x.md']) {
      expect(isWritablePath(bad, 'docs')).toBe(false);
    }
    expect(isWritablePath('.git/config', '')).toBe(false);
  });
});
