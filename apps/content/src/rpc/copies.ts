import type { ContentServiceServer, Space, SpaceCounters, SpaceGitLink } from '@quire/proto/content';
import { COMMON } from '@quire/proto/limits';
import { callsAsItself, PermissionDeniedError, type Handlers, type Logger, type Page } from '@quire/service-kit';
import { allow, type Role } from '@quire/policy';
import type { PageRequest } from '@quire/proto/common';
import { spaceRole, type Access } from '../domain/access.ts';
import { checkCounters, checkGitLinks, newest, type CopyUpdate } from '../domain/copies.ts';
import { presentSpace } from '../presenters.ts';
import type { CopyRow } from '../store/copies.ts';
import type { SpaceRow, Store } from '../store/index.ts';
import { visiblePage } from './deps.ts';

/** The services that own what a Space shows, asked for their current state when a copy is missing. */
export interface Owners {
  /** Review's counters of each space asked for (version 0 for a space it never counted). */
  counters(spaceIds: string[]): Promise<SpaceCounters[]>;
  /** Git-sync's links of the spaces that have one. */
  gitLinks(spaceIds: string[]): Promise<SpaceGitLink[]>;
}

export interface CopyDeps {
  store: Store;
  /** Unset where no owner runs (content's own contract tests): missing copies then show zeros and no link. */
  owners?: Owners;
}

/** Keeps an update from an owner's event or call when it is newer than the copy; answers whether it was. */
export async function applyCopyUpdate(store: Store, u: CopyUpdate): Promise<boolean> {
  const n =
    u.kind === 'counters'
      ? await store.copies.recordCounters([u.counters])
      : await store.copies.recordGitLinks([{ spaceId: u.link.spaceId, version: u.link.version, link: u.link }]);
  return n > 0;
}

/**
 * Asks the owners for the copies the spaces lack (one call to each, at most a page of spaces) and
 * keeps what they answer; an owner that does not answer is logged and its copies stay missing,
 * asked for again at the next read.
 */
export async function rebuildCopies({ store, owners }: CopyDeps, need: { counters: string[]; gitLinks: string[] }, log: Pick<Logger, 'warn'>): Promise<void> {
  if (!owners) return;
  const [counters, links] = await Promise.allSettled([need.counters.length ? owners.counters(need.counters) : [], need.gitLinks.length ? owners.gitLinks(need.gitLinks) : []]);
  const writes: Promise<number>[] = [];
  if (counters.status === 'fulfilled') writes.push(store.copies.recordCounters(newest(counters.value)));
  else log.warn({ err: counters.reason, spaces: need.counters.length }, 'review did not answer for missing space counters');
  if (links.status === 'fulfilled') {
    const linked = new Map(newest(links.value).map((l) => [l.spaceId, l]));
    // A space the owner has no link of is known to have none: version 0, which any link replaces.
    writes.push(store.copies.recordGitLinks(need.gitLinks.map((spaceId) => ({ spaceId, version: linked.get(spaceId)?.version ?? 0, link: linked.get(spaceId) ?? null }))));
  } else log.warn({ err: links.reason, spaces: need.gitLinks.length }, 'git-sync did not answer for missing Git links');
  await Promise.all(writes);
}

/** The copies of the spaces, read where the row did not bring them and asked of the owners where missing. */
async function copiesOf(deps: CopyDeps, rows: SpaceRow[], log: Pick<Logger, 'warn'>): Promise<Map<string, CopyRow | null>> {
  const copies = new Map<string, CopyRow | null>();
  const unread: string[] = [];
  for (const r of rows) {
    if (r.copy === undefined) unread.push(r.id);
    else copies.set(r.id, r.copy);
  }
  const read = await deps.store.copies.copies(unread);
  for (const id of unread) copies.set(id, read.get(id) ?? null);
  const need = {
    counters: rows.filter((r) => copies.get(r.id)?.countersVersion == null).map((r) => r.id),
    gitLinks: rows.filter((r) => copies.get(r.id)?.gitVersion == null).map((r) => r.id),
  };
  if (!deps.owners || (!need.counters.length && !need.gitLinks.length)) return copies;
  await rebuildCopies(deps, need, log);
  const rebuilt = await deps.store.copies.copies([...new Set([...need.counters, ...need.gitLinks])]);
  for (const [id, copy] of rebuilt) copies.set(id, copy);
  return copies;
}

/** Spaces as the API shows them, each with the caller's role: content's rows and their copies, in one read of the copies. */
export async function presentSpaces(deps: CopyDeps, rows: SpaceRow[], roleOf: (r: SpaceRow) => Role, log: Pick<Logger, 'warn'>): Promise<Space[]> {
  const copies = await copiesOf(deps, rows, log);
  return rows.map((r) => presentSpace(r, roleOf(r), copies.get(r.id)));
}

/** A page of the spaces `list` reads that `access` may view, each shown with its role. */
export async function viewableSpaces(deps: CopyDeps, access: Access, req: PageRequest | undefined, list: (page: Page) => Promise<SpaceRow[]>, log: Pick<Logger, 'warn'>) {
  const { items, next } = await visiblePage(req, list, (s) => allow(spaceRole(access, s), 'view', 'space'));
  return { items: await presentSpaces(deps, items, (s) => spaceRole(access, s), log), page: { next } };
}

export async function presentOne(deps: CopyDeps, row: SpaceRow, role: Role, log: Pick<Logger, 'warn'>): Promise<Space> {
  return (await presentSpaces(deps, [row], () => role, log))[0]!;
}

/** Asks the owners for every copy missing (spaces made before the copies, or whose owner was away), a page at a time. */
export async function rebuildMissingCopies(deps: CopyDeps, log: Pick<Logger, 'warn'>): Promise<number> {
  let total = 0;
  for (let after = ''; ;) {
    const ids = await deps.store.copies.missing(after, COMMON.batchIds.max);
    if (!ids.length) return total;
    await rebuildCopies(deps, { counters: ids, gitLinks: ids }, log);
    total += ids.length;
    after = ids.at(-1)!;
  }
}

type H = Pick<Handlers<ContentServiceServer>, 'recordSpaceCounters' | 'recordSpaceGitLinks'>;

/** The owners' calls after a change: each records its own copies only, as itself. */
export function copyHandlers({ store }: CopyDeps): H {
  return {
    async recordSpaceCounters(req, ctx) {
      if (!callsAsItself(ctx, 'review')) throw new PermissionDeniedError('Only the review service records the counters of spaces');
      return { applied: await store.copies.recordCounters(checkCounters(req.counters)) };
    },
    async recordSpaceGitLinks(req, ctx) {
      if (!callsAsItself(ctx, 'git-sync')) throw new PermissionDeniedError('Only the git-sync service records the Git links of spaces');
      const links = checkGitLinks(req.links);
      return { applied: await store.copies.recordGitLinks(links.map((link) => ({ spaceId: link.spaceId, version: link.version, link }))) };
    },
  };
}
