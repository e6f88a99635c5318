import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromMarkdown, mapRefs, mentionedUsers, paragraph, resolveRefs, type ContentRef, type JSONDocument, type LinkContext } from '../src/index.ts';

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

describe('mentionedUsers', () => {
  it('names each mentioned user once, in order, and no other ref', () => {
    const mention = (ref: ContentRef) => ({ object: 'inline' as const, type: 'mention' as const, isVoid: true as const, data: { ref } });
    const document = {
      object: 'document',
      data: {},
      nodes: [paragraph([mention({ kind: 'user', user: 'b' }), mention({ kind: 'page', page: 'p' }), mention({ kind: 'user', user: 'a' }), mention({ kind: 'user', user: 'b' })])],
    } as JSONDocument;
    expect(mentionedUsers(document)).toEqual(['b', 'a']);
  });
});

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

  it("visits the destinations of buttons and drawings, which only the editor writes, in toMarkdown's contexts", () => {
    const document = {
      object: 'document',
      data: {},
      nodes: [
        paragraph([{ object: 'inline', type: 'button', isVoid: true, data: { label: 'Go', kind: 'primary', ref: { kind: 'url', url: 'guide.md' } } }]),
        { object: 'block', type: 'drawing', isVoid: true, data: { ref: { kind: 'file', file: '.gitbook/assets/d.svg' } } },
      ],
    } as JSONDocument;
    const visited: [ContentRef, LinkContext][] = [];
    mapRefs(document, (ref, context) => (visited.push([ref, context]), ref));
    expect(visited).toEqual([
      [{ kind: 'url', url: 'guide.md' }, 'link'],
      [{ kind: 'file', file: '.gitbook/assets/d.svg' }, 'image'],
    ]);
  });
});
