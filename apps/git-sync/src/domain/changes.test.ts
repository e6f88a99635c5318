import { describe, expect, it } from 'vitest';
import { pagesChanged, pagesWritten } from './changes.ts';

interface P {
  git: { oid: string; path: string };
  pages: P[];
}

const page = (path: string, oid: string, pages: P[] = []): P => ({ git: { path, oid }, pages });

describe('pages changed', () => {
  it('counts pages added, changed and removed by their source files, nested ones included', () => {
    const before = [page('README.md', 'a'), page('setup/README.md', 'b', [page('setup/linux.md', 'c')])];
    const after = [page('README.md', 'a'), page('setup/README.md', 'B', [page('setup/mac.md', 'd')])];
    // setup/README.md changed, setup/mac.md added, setup/linux.md removed.
    expect(pagesChanged(before, after)).toBe(3);
    expect(pagesChanged(after, after)).toBe(0);
    expect(pagesChanged([], after)).toBe(3);
  });

  it('counts the Markdown files an export writes, not its table of contents or assets', () => {
    expect(pagesWritten(['README.md', 'docs/SUMMARY.md', 'docs/a.md', '.gitbook/assets/x.png', '.gitbook.yaml'])).toBe(2);
  });
});
