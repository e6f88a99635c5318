import { describe, expect, it } from 'vitest';
import { COMMENT } from '@quire/proto/limits';
import { overBound, refusal } from '@quire/service-kit/testing';
import { checkReactions } from './comments.ts';

// The bounds of @quire/proto/limits checked by this service's domain, refused one over with the
// field named (the gateway's limits.test.ts finds the same numbers in its OpenAPI document).

describe('review refuses what is over the bounds of @quire/proto/limits', () => {
  it.each([
    [
      'COMMENT.reactions',
      () =>
        checkReactions(
          'addedReactions',
          Array.from({ length: COMMENT.reactions.max + 1 }, (_, i) => `${i}`),
        ),
    ],
    ['COMMENT.reaction', () => checkReactions('addedReactions', [overBound(COMMENT.reaction)])],
  ])('%s', (_bound, check) => {
    expect(refusal(check)).toMatch(/^addedReactions: /);
  });

  it('takes what is at the bounds', () => {
    expect(checkReactions('addedReactions', ['x'.repeat(COMMENT.reaction.max)])).toHaveLength(1);
  });
});
