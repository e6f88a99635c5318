import { describe, expect, it } from 'vitest';
import { documentId } from './changes.ts';
import { checkReusableContents, MAX_REUSABLE_CONTENTS } from './reusable.ts';

const counter = () => {
  let n = 0;
  return () => `new${n++}`;
};

describe('checkReusableContents', () => {
  it('keeps given ids, makes the others, and stores each markdown as a document', () => {
    const { contents, documents } = checkReusableContents(
      [
        { id: 'rc1', title: 'Steps', markdown: 'One.', git: { oid: 'o', path: '.gitbook/includes/steps.md' } },
        { id: '', title: 'Footer', markdown: 'Two.' },
      ],
      counter(),
    );
    expect(contents).toEqual([
      { id: 'rc1', title: 'Steps', documentId: documentId('One.'), git: { oid: 'o', path: '.gitbook/includes/steps.md' } },
      { id: 'new0', title: 'Footer', documentId: documentId('Two.') },
    ]);
    expect([...documents.values()]).toEqual([{ markdown: 'One.' }, { markdown: 'Two.' }]);
  });

  it('refuses more than the bound before reading any, bad ids, twice the same id and empty titles', () => {
    const one = { id: 'a', title: 'A', markdown: '' };
    expect(() =>
      checkReusableContents(
        Array.from({ length: MAX_REUSABLE_CONTENTS + 1 }, () => ({ ...one, id: '../bad' })),
        counter(),
      ),
    ).toThrow(/reusableContents: at most/);
    expect(() => checkReusableContents([{ ...one, id: 'a/b' }], counter())).toThrow(/items\[0\]\.id/);
    expect(() => checkReusableContents([one, one], counter())).toThrow(/items\[1\]\.id: "a" is used twice/);
    expect(() => checkReusableContents([{ ...one, title: '' }], counter())).toThrow(/items\[0\]\.title/);
  });
});
