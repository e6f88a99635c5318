import type { DomainEvent } from '@quire/service-kit/nats';
import { describe, expect, it } from 'vitest';
import { mergeOf } from './merges.ts';

const event = (e: Partial<DomainEvent>): DomainEvent => ({
  id: 'e1',
  occurredAt: '2026-01-01T00:00:00Z',
  service: 'content',
  entity: 'change_request',
  verb: 'merged',
  target: { type: 'change_request', id: 'cr1' },
  details: { spaceId: 's1', revisionId: 'r1' },
  ...e,
});

describe('mergeOf', () => {
  it("reads content's merged event", () => {
    expect(mergeOf(event({}))).toEqual({ changeRequestId: 'cr1', spaceId: 's1', revisionId: 'r1' });
  });

  it('ignores other services, other events and ones missing what a merge names', () => {
    expect(mergeOf(event({ service: 'review' }))).toBeNull();
    expect(mergeOf(event({ verb: 'created' }))).toBeNull();
    expect(mergeOf(event({ target: undefined }))).toBeNull();
    expect(mergeOf(event({ details: { spaceId: 's1' } }))).toBeNull();
    expect(mergeOf(event({ details: { spaceId: 's1', revisionId: 7 } }))).toBeNull();
  });
});
