import type { SpaceCounters, SpaceGitLink } from '@quire/proto/content';
import { COMMON } from '@quire/proto/limits';
import { InvalidArgumentError } from '@quire/service-kit';
import { STATE_EVENTS, type DomainEvent } from '@quire/service-kit/nats';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

// The copies of what a Space shows from other services (review's counters, git-sync's Git link):
// what an owner's state event or call holds, checked, and which copy a read still lacks.

const Id = Type.String({ minLength: 1, maxLength: 64 });
// Versions are positive integers below 2^53 (a JSON number), raised by one per change.
const Version = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const Count = Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 });
const Text = (max: number) => Type.String({ maxLength: max });

const CountersDetails = Type.Object({
  spaceId: Id,
  version: Version,
  comments: Count,
  changeRequests: Count,
  changeRequestsOpen: Count,
  changeRequestsDraft: Count,
});

const GitLinkDetails = Type.Object({
  spaceId: Id,
  version: Version,
  repoName: Text(512),
  installationProvider: Text(16),
  integration: Text(64),
  url: Text(2048),
  updatedAt: Type.String({ minLength: 1, maxLength: 40 }),
});

/** The link as the copy keeps it (`SpaceCopy.gitLink`). */
export interface StoredGitLink {
  repoName: string;
  installationProvider: string;
  integration: string;
  url: string;
  updatedAt: string;
}

export type CopyUpdate = { kind: 'counters'; counters: SpaceCounters } | { kind: 'gitLink'; link: SpaceGitLink };

const is = (e: Pick<DomainEvent, 'service' | 'entity' | 'verb'>, s: { service: string; entity: string; verb: string }) =>
  e.service === s.service && e.entity === s.entity && e.verb === s.verb;

/**
 * The copy a domain event updates, or null when the event feeds no copy here (other events share
 * the subjects) or is malformed (then dropped: a redelivery would not mend it).
 */
export function copyUpdateOf(e: Pick<DomainEvent, 'service' | 'entity' | 'verb' | 'details'>): CopyUpdate | null {
  if (is(e, STATE_EVENTS.spaceCounters)) {
    return Value.Check(CountersDetails, e.details) ? { kind: 'counters', counters: pickCounters(e.details) } : null;
  }
  if (is(e, STATE_EVENTS.spaceGitLink)) {
    if (!Value.Check(GitLinkDetails, e.details)) return null;
    const updatedAt = new Date(e.details.updatedAt);
    return Number.isNaN(updatedAt.getTime()) ? null : { kind: 'gitLink', link: { ...pickLink(e.details), updatedAt } };
  }
  return null;
}

const pickCounters = (d: Static<typeof CountersDetails>): SpaceCounters => ({
  spaceId: d.spaceId,
  version: d.version,
  comments: d.comments,
  changeRequests: d.changeRequests,
  changeRequestsOpen: d.changeRequestsOpen,
  changeRequestsDraft: d.changeRequestsDraft,
});

const pickLink = (d: Static<typeof GitLinkDetails>) => ({
  spaceId: d.spaceId,
  version: d.version,
  repoName: d.repoName,
  installationProvider: d.installationProvider,
  integration: d.integration,
  url: d.url,
});

/** An owner's call: at most a page of copies, each well formed; INVALID_ARGUMENT naming the first that is not. */
export function checkCounters(counters: SpaceCounters[]): SpaceCounters[] {
  checkCount('counters', counters.length);
  counters.forEach((c, i) => {
    if (!Value.Check(CountersDetails, c)) throw new InvalidArgumentError(`counters[${i}]: a space id, a version of 1 or more and counts`);
  });
  return newest(counters);
}

export function checkGitLinks(links: SpaceGitLink[]): SpaceGitLink[] {
  checkCount('links', links.length);
  links.forEach((l, i) => {
    const details = { ...l, updatedAt: l.updatedAt?.toISOString() ?? '' };
    if (!Value.Check(GitLinkDetails, details) || !l.updatedAt) throw new InvalidArgumentError(`links[${i}]: a space id, a version of 1 or more, the link's fields and updatedAt`);
  });
  return newest(links);
}

function checkCount(field: string, n: number) {
  if (n > COMMON.batchIds.max) throw new InvalidArgumentError(`${field}: at most ${COMMON.batchIds.max} (got ${n})`);
}

/** One copy per space, the highest version (a batch updating a row twice is refused by PostgreSQL). */
export function newest<T extends { spaceId: string; version: number }>(items: T[]): T[] {
  const byId = new Map<string, T>();
  for (const item of items) if ((byId.get(item.spaceId)?.version ?? -1) < item.version) byId.set(item.spaceId, item);
  return [...byId.values()];
}

export const storedLink = (l: SpaceGitLink): StoredGitLink => ({
  repoName: l.repoName,
  installationProvider: l.installationProvider,
  integration: l.integration,
  url: l.url,
  updatedAt: (l.updatedAt ?? new Date(0)).toISOString(),
});
