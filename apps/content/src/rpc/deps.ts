import type { PageRequest } from '@quire/proto/common';
import type { OrgsServiceClient } from '@quire/proto/orgs';
import { callsAsItself, NotFoundError, pageArgs, pageOf, type CallContext, type Page, type PromiseClient } from '@quire/service-kit';
import { allow, isRole, Role, strongest } from '@quire/policy';
import { collectionRole, levelToRole, serviceRole, spaceRole, type Access, type Level } from '../domain/access.ts';
import type { EventSink } from '@quire/service-kit/nats';
import type { SpaceRow, Store, StoredAccess } from '../store/index.ts';
import type { Owners } from './copies.ts';

export interface Deps {
  store: Store;
  orgs: PromiseClient<OrgsServiceClient>;
  /** Permission changes of spaces and collections, for the audit log. */
  events: EventSink;
  /** Review and git-sync, asked for a Space's copies when they are missing. */
  owners?: Owners;
  /** The clock of the delete/restore window; tests replace it. */
  now?: () => Date;
}

export { callerOf } from '@quire/service-kit';

function strongestGrants(grants: { id: string; role: Level }[]): Map<string, Role> {
  const byId = new Map<string, Role>();
  for (const g of grants) byId.set(g.id, strongest(byId.get(g.id) ?? Role.ROLE_UNSPECIFIED, levelToRole(g.role)));
  return byId;
}

/** What decides the caller's roles in the organization: its membership and teams (orgs), its grants (here). */
export function accessIn(deps: Deps, organizationId: string, ctx: CallContext): Promise<Access> {
  return accessOf(deps, organizationId, ctx.userId, ctx);
}

/** The same for any user of the organization (a member's spaces, as an admin looks at them). */
export async function accessOf(deps: Deps, organizationId: string, userId: string | undefined, ctx: CallContext): Promise<Access> {
  const { role, principals } = await membershipOf(deps, organizationId, userId, ctx);
  return accessFrom(role, await deps.store.access(organizationId, principals));
}

/** The user's role in the organization (orgs says) and who grants to it may name: the user and its teams. */
async function membershipOf({ orgs }: Deps, organizationId: string, userId: string | undefined, ctx: CallContext) {
  const { role, teamIds } = userId ? await orgs.getMembership({ organizationId, userId }, ctx) : { role: Role.ROLE_UNSPECIFIED, teamIds: [] };
  return { role, principals: userId && isRole(role) ? [userId, ...teamIds] : [] };
}

const accessFrom = (orgRole: Role, { collections, collectionGrants, spaceGrants }: StoredAccess): Access => ({
  orgRole,
  collections,
  collectionGrants: strongestGrants(collectionGrants),
  spaceGrants: strongestGrants(spaceGrants),
});

/**
 * The space and the caller's access in its organization. When this process has read the space
 * before, its organization is known: the membership is asked first (orgs' answers are kept a
 * moment) and the space and the grants are read in one statement. A space moved to another
 * organization meanwhile is read again there.
 */
async function spaceAndAccess(deps: Deps, spaceId: string, ctx: CallContext): Promise<{ space: SpaceRow | null; access?: Access }> {
  const known = deps.store.organizationOf(spaceId);
  if (known === undefined) return { space: await deps.store.getSpace(spaceId) };
  const { role, principals } = await membershipOf(deps, known, ctx.userId, ctx);
  const read = await deps.store.spaceWithAccess(spaceId, known, principals);
  if (!read) return { space: null };
  return { space: read.space, access: read.space.organizationId === known ? accessFrom(role, read.access) : undefined };
}

/** Access to an organization the caller belongs to; NOT_FOUND naming it otherwise. */
export async function memberAccessIn(deps: Deps, organizationId: string, ctx: CallContext, field = 'organization'): Promise<Access> {
  const access = await accessIn(deps, organizationId, ctx);
  if (!isRole(access.orgRole)) throw new NotFoundError(`${field}: "${organizationId}" not found`);
  return access;
}

/**
 * A page of the rows the caller may see: reads on past hidden rows until the page is full or the
 * rows run out, so a page is short only at the end.
 */
export async function visiblePage<T extends { id: string }>(req: PageRequest | undefined, fetch: (page: Page) => Promise<T[]>, keep: (row: T) => boolean) {
  const { limit, page } = pageArgs(req);
  const kept: T[] = [];
  for (let after = page.after; ;) {
    const rows = await fetch({ after, take: page.take });
    kept.push(...rows.filter(keep));
    if (kept.length > limit || rows.length < page.take) break;
    after = rows.at(-1)!.id;
  }
  return pageOf(kept, limit, (r) => r.id);
}

export const collectionNotFound = (id: string, field?: string) => new NotFoundError(`${field ? `${field}: c` : 'C'}ollection "${id}" not found`);
export const spaceNotFound = (id: string) => new NotFoundError(`Space "${id}" not found`);

/**
 * The space (a deleted one only when `deleted`) with the caller's access and role there;
 * NOT_FOUND when the caller cannot see it, as for a missing one.
 */
export async function visibleSpace(deps: Deps, spaceId: string, ctx: CallContext, deleted = false) {
  const { space, access: known } = await spaceAndAccess(deps, spaceId, ctx);
  if (!space || (space.deletedAt !== null) !== deleted) throw spaceNotFound(spaceId);
  const access = known ?? (await accessIn(deps, space.organizationId, ctx));
  const role = strongest(spaceRole(access, space), serviceRole(callsAsItself(ctx, 'reader')));
  if (!allow(role, 'view', 'space')) throw spaceNotFound(spaceId);
  return { space, access, role };
}

/** The collection with the caller's access and role there; NOT_FOUND when the caller cannot see it. */
export async function visibleCollection(deps: Deps, collectionId: string, ctx: CallContext) {
  const collection = await deps.store.getCollection(collectionId);
  if (!collection) throw collectionNotFound(collectionId);
  const access = await accessIn(deps, collection.organizationId, ctx);
  const role = collectionRole(access, collection);
  if (!allow(role, 'view', 'collection')) throw collectionNotFound(collectionId);
  return { collection, access, role };
}
