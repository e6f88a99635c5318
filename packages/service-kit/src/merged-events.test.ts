import { describe, expect, it } from 'vitest';
import { changeRequestMerged } from './merged-events.js';
import type { DomainEvent } from './nats.js';

const event = (e: Partial<DomainEvent> = {}): DomainEvent => ({
  id: 'e1',
  occurredAt: '2026-11-29T00:00:00.000Z',
  service: 'content',
  entity: 'change_request',
  verb: 'merged',
  actor: 'u1',
  target: { type: 'change_request', id: 'cr1' },
  details: { spaceId: 's1', revisionId: 'r1', subject: 'Fix typos' },
  ...e,
});

describe("content's merge event", () => {
  it('names the change request, its space, the merge revision, the subject and the merger', () => {
    expect(changeRequestMerged(event())).toEqual({ eventId: 'e1', changeRequestId: 'cr1', spaceId: 's1', revisionId: 'r1', subject: 'Fix typos', mergedBy: 'u1' });
    expect(changeRequestMerged(event({ details: { spaceId: 's1', revisionId: 'r1' } }))?.subject).toBe('');
  });

  it('of another service or verb, or missing what a merge names, is not a merge', () => {
    expect(changeRequestMerged(event({ service: 'review' }))).toBeNull();
    expect(changeRequestMerged(event({ verb: 'created' }))).toBeNull();
    expect(changeRequestMerged(event({ target: undefined }))).toBeNull();
    expect(changeRequestMerged(event({ actor: undefined }))).toBeNull();
    expect(changeRequestMerged(event({ details: { revisionId: 'r1' } }))).toBeNull();
    expect(changeRequestMerged(event({ details: { spaceId: 's1', revisionId: 7 } }))).toBeNull();
  });
});
