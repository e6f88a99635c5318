// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { diffBlocks } from './diff.ts';

describe('diffBlocks', () => {
  it('names added, removed, moved and unchanged blocks', () => {
    const before = '# Title\n\nFirst.\n\nSecond.\n\n- a\n- b\n';
    const after = '# Title\n\nSecond.\n\nFirst.\n\n- a\n- c\n\n```js\nx\n```\n';
    expect(diffBlocks(before, after)).toEqual([
      { kind: 'same', markdown: '# Title' },
      { kind: 'moved', markdown: 'First.' },
      { kind: 'same', markdown: 'Second.' },
      { kind: 'removed', markdown: '* a\n* b' },
      { kind: 'added', markdown: '* a\n* c' },
      { kind: 'added', markdown: '```js\nx\n```' },
    ]);
  });

  it('a new page is all additions, a deleted one all removals', () => {
    expect(diffBlocks('', 'Hello')).toEqual([{ kind: 'added', markdown: 'Hello' }]);
    expect(diffBlocks('Bye', '')).toEqual([{ kind: 'removed', markdown: 'Bye' }]);
  });
});
