import { STATE_EVENTS } from '@quire/service-kit/nats';
import { describe, expect, it } from 'vitest';
import { checkCounters, checkGitLinks, copyUpdateOf, newest } from './copies.ts';

const counters = { spaceId: 's1', version: 2, comments: 1, changeRequests: 3, changeRequestsOpen: 2, changeRequestsDraft: 1 };
const link = {
  spaceId: 's1',
  version: 4,
  repoName: 'acme/docs',
  installationProvider: 'github',
  integration: 'git-sync',
  url: 'https://github.com/acme/docs',
  updatedAt: '2026-11-24T12:00:00.000Z',
};

describe('copyUpdateOf', () => {
  it("reads review's counters and git-sync's link from their state events", () => {
    expect(copyUpdateOf({ ...STATE_EVENTS.spaceCounters, details: counters })).toEqual({ kind: 'counters', counters });
    expect(copyUpdateOf({ ...STATE_EVENTS.spaceGitLink, details: link })).toEqual({ kind: 'gitLink', link: { ...link, updatedAt: new Date(link.updatedAt) } });
  });

  it('keeps only the fields of the copy', () => {
    expect(copyUpdateOf({ ...STATE_EVENTS.spaceCounters, details: { ...counters, extra: 'x' } })).toEqual({ kind: 'counters', counters });
  });

  it('answers null for other events on the same subjects and for malformed state events', () => {
    expect(copyUpdateOf({ service: 'content', entity: 'space', verb: 'permissions_changed', details: counters })).toBeNull();
    // The right verb from the wrong service is not the owner's state.
    expect(copyUpdateOf({ service: 'sites', entity: 'space', verb: 'counters_changed', details: counters })).toBeNull();
    for (const details of [
      undefined,
      { ...counters, version: 0 },
      { ...counters, version: 1.5 },
      { ...counters, comments: -1 },
      { ...counters, spaceId: '' },
      { ...counters, changeRequests: '3' },
    ]) {
      expect(copyUpdateOf({ ...STATE_EVENTS.spaceCounters, details: details as Record<string, unknown> })).toBeNull();
    }
    for (const details of [
      { ...link, updatedAt: 'yesterday' },
      { ...link, url: 'u'.repeat(2049) },
      { ...link, repoName: undefined },
    ]) {
      expect(copyUpdateOf({ ...STATE_EVENTS.spaceGitLink, details })).toBeNull();
    }
  });
});

describe('newest', () => {
  it('keeps the highest version of each space, whatever the order', () => {
    const items = [
      { spaceId: 'a', version: 2 },
      { spaceId: 'b', version: 1 },
      { spaceId: 'a', version: 5 },
      { spaceId: 'a', version: 3 },
    ];
    expect(newest(items)).toEqual([
      { spaceId: 'a', version: 5 },
      { spaceId: 'b', version: 1 },
    ]);
  });
});

describe('checkCounters and checkGitLinks', () => {
  it('name the first malformed copy and the bound of a page', () => {
    expect(() => checkCounters([counters, { ...counters, version: 0 }])).toThrow(/counters\[1\]/);
    expect(() => checkCounters(Array.from({ length: 1001 }, () => counters))).toThrow(/at most 1000/);
    expect(() => checkGitLinks([{ ...link, updatedAt: undefined }])).toThrow(/links\[0\]/);
    expect(checkGitLinks([{ ...link, updatedAt: new Date(link.updatedAt) }])).toHaveLength(1);
  });
});
