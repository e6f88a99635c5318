import { describe, expect, it } from 'vitest';
import { GIT_SYNC } from '@quire/proto/limits';
import { refusal } from '@quire/service-kit/testing';
import { checkRef } from './remote.ts';

// GIT_SYNC.ref of @quire/proto/limits, refused one over with the field named; the other Git Sync
// bounds are checked by the RPC handler (gitsync.contract.test.ts drives it).

describe('git-sync refuses what is over the bounds of @quire/proto/limits', () => {
  it('GIT_SYNC.ref', () => {
    const ref = `refs/heads/${'b'.repeat(GIT_SYNC.ref.max)}`.slice(0, GIT_SYNC.ref.max + 1);
    expect(refusal(() => checkRef(ref))).toMatch(/^ref: must be /);
    expect(checkRef(ref.slice(0, GIT_SYNC.ref.max))).toBe(ref.slice(0, GIT_SYNC.ref.max));
  });
});
