import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromMarkdown, resolveRefs, type ContentRef, type LinkContext } from '../src/index.ts';

const fixtures = new URL('./fixtures/', import.meta.url);
const names = readdirSync(fixtures).filter((name) => name.endsWith('.md'));
const read = (name: string) => readFileSync(new URL(name, fixtures), 'utf8');

// Resolves every kind of destination somehow, including answers a context must refuse.
const seen: LinkContext[] = [];
function resolveLink(url: string, context: LinkContext): ContentRef | undefined {
  seen.push(context);
  if (url.startsWith('#')) return { kind: 'anchor', anchor: url.slice(1) };
  if (/\.md(#|$)/.test(url)) return { kind: 'page', page: `page:${url}` };
  if (url.startsWith('.gitbook/assets/') || context === 'file') return { kind: 'file', file: `file:${url}` };
  if (context === 'image') return { kind: 'page', page: 'an image cannot be a page' };
  return undefined;
}

describe('resolveRefs', () => {
  it.each([...names, 'every block at once'])('%s: a stored document resolved later equals one resolved while parsing', (name) => {
    const markdown = name === 'every block at once' ? names.map(read).join('\n') : read(name);
    const expected = fromMarkdown(markdown, { resolveLink });
    const stored = JSON.parse(JSON.stringify(fromMarkdown(markdown))) as ReturnType<typeof fromMarkdown>;
    expect(resolveRefs(stored, resolveLink)).toEqual(expected);
  });

  it('meets every context a document holds', () => {
    seen.length = 0;
    resolveRefs(fromMarkdown(names.map(read).join('\n')), resolveLink);
    expect(new Set(seen)).toEqual(new Set<LinkContext>(['link', 'mention', 'image', 'file', 'content-ref']));
  });
});
