import { describe, expect, it } from 'vitest';
import { CHANGE_REQUEST, COMMON, FILE, OPENAPI_SPEC, PAGE, SPACE } from '@quire/proto/limits';
import { overBound, refusal } from '@quire/service-kit/testing';
import { applyChanges, type Change } from './changes.ts';
import { checkDescription, checkEmoji, checkTitle } from './fields.ts';
import { grantPrincipals } from './grants.ts';
import { checkSlug } from './openapi.ts';
import { checkQuery } from './search.ts';
import { emptyTree } from './tree.ts';

// The bounds of @quire/proto/limits this service owns, refused one over with the field named (the
// gateway's limits.test.ts finds the same numbers in its OpenAPI document).

const ctx = { now: new Date('2026-01-01T00:00:00Z'), newId: () => 'id1', revisions: new Map() };
const page = (insertPage: Partial<Extract<Change, { insertPage: unknown }>['insertPage']>): Change => ({ insertPage: { type: '', href: '', ref: '', ...insertPage } });
const apply = (...changes: Change[]) => applyChanges(emptyTree(), changes, ctx);

describe('content refuses what is over the bounds of @quire/proto/limits', () => {
  it.each([
    ['SPACE.title', 'title', () => checkTitle(overBound(SPACE.title))],
    ['SPACE.description', 'description', () => checkDescription(overBound(SPACE.description))],
    ['COMMON.emoji', 'emoji', () => checkEmoji('😀'.repeat(COMMON.emoji.max + 1))],
    [
      'SPACE.principals',
      'users',
      () =>
        grantPrincipals(
          Array.from({ length: SPACE.principals.max + 1 }, (_, i) => `u${i}`),
          [],
        ),
    ],
    ['SPACE.searchQuery', 'query', () => checkQuery(overBound(SPACE.searchQuery))],
    ['OPENAPI_SPEC.slug', 'slug', () => checkSlug(overBound(OPENAPI_SPEC.slug))],
    ['CHANGE_REQUEST.changes', 'changes', () => apply(...Array.from({ length: CHANGE_REQUEST.changes.max + 1 }, () => page({})))],
    ['PAGE.title', 'changes\\[0\\]\\.title', () => apply(page({ fields: { title: overBound(PAGE.title) } }))],
    ['PAGE.description', 'changes\\[0\\]\\.description', () => apply(page({ fields: { description: overBound(PAGE.description) } }))],
    ['PAGE.markdown', 'changes\\[0\\]\\.markdown', () => apply(page({ markdown: overBound(PAGE.markdown) }))],
    [
      'FILE.name',
      'changes\\[0\\]\\.files\\[0\\]\\.name',
      () => apply({ insertFiles: { files: [{ ref: 'f', name: overBound(FILE.name), contentType: '', blob: 'f'.repeat(64), size: 1 }] } }),
    ],
  ])('%s', (_bound, field, check) => {
    expect(refusal(check)).toMatch(new RegExp(`^${field}: `));
  });

  it('takes what is at the bounds', () => {
    expect(checkTitle('x'.repeat(SPACE.title.max))).toHaveLength(SPACE.title.max);
    expect(checkQuery('x'.repeat(SPACE.searchQuery.max))).toHaveLength(SPACE.searchQuery.max);
  });
});
