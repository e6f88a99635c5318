import type { ContentServiceClient } from '@quire/proto/content';
import type { OrgsServiceClient } from '@quire/proto/orgs';
import type { SiteRef } from '@quire/proto/sites';
import { callerOf, GrpcStatus, isServiceError, NotFoundError, PermissionDeniedError, type CallContext, type PromiseClient, type ServiceIdentity } from '@quire/service-kit';
import { allow, Role } from '@quire/policy';
import { visitorMayView } from '../domain/access.ts';
import type { EventSink } from '@quire/service-kit/nats';
import type { SealingKeys } from '@quire/service-kit/sealed';
import type { SiteRow, SpaceRef, Store } from '../store/index.ts';

export interface Deps {
  store: Store;
  orgs: PromiseClient<OrgsServiceClient>;
  content: PromiseClient<ContentServiceClient>;
  /** Seals the sites' visitor keys (AES-256-GCM), and opens them with the previous keys too. */
  secretsKey: SealingKeys;
  /** Visibility and publishing changes, for the audit log. */
  events: EventSink;
  /** This service's identity: verifies the gateway's member grants. */
  identity: ServiceIdentity;
  /** The clock of `updatedAt` stamps; tests replace it. */
  now?: () => Date;
}

export const siteNotFound = (id: string) => new NotFoundError(`Site "${id}" not found`);

async function orgRole({ orgs }: Deps, organizationId: string, ctx: CallContext): Promise<Role> {
  if (!ctx.userId) return Role.ROLE_UNSPECIFIED;
  return (await orgs.getMembership({ organizationId, userId: ctx.userId }, ctx)).role;
}

async function siteIn(deps: Deps, ref: SiteRef | undefined): Promise<SiteRow> {
  const site = ref?.siteId ? await deps.store.getSite(ref.siteId) : null;
  // Another organization's site looks missing.
  if (!site || site.organizationId !== ref!.organizationId) throw siteNotFound(ref?.siteId ?? '');
  return site;
}

/** The site, for a member of its organization who may read it; NOT_FOUND otherwise. */
export async function readable(deps: Deps, ref: SiteRef | undefined, ctx: CallContext) {
  const site = await siteIn(deps, ref);
  const role = await orgRole(deps, site.organizationId, ctx);
  if (!allow(role, 'view', 'site')) throw siteNotFound(site.id);
  return { site, role };
}

const mayNotEdit = (what: string) => new PermissionDeniedError(`Only members with the create or admin role can change ${what}`);

/** The site, for a member who may change it: PERMISSION_DENIED for readers. */
export async function editable(deps: Deps, ref: SiteRef | undefined, ctx: CallContext): Promise<SiteRow> {
  callerOf(ctx);
  const { site, role } = await readable(deps, ref, ctx);
  if (!allow(role, 'edit', 'site')) throw mayNotEdit(`site "${site.id}"`);
  return site;
}

/** The caller's role in an organization it is a member of (with a role); NOT_FOUND otherwise. */
export async function memberOf(deps: Deps, organizationId: string, ctx: CallContext): Promise<Role> {
  callerOf(ctx);
  const role = await orgRole(deps, organizationId, ctx);
  if (!allow(role, 'view', 'site')) throw new NotFoundError(`Organization "${organizationId}" not found`);
  return role;
}

/** The same, for a member who may create sites there. */
export async function editorOf(deps: Deps, organizationId: string, ctx: CallContext): Promise<void> {
  if (!allow(await memberOf(deps, organizationId, ctx), 'edit', 'site')) throw mayNotEdit(`the sites of organization "${organizationId}"`);
}

/**
 * The site for a member, or for a visitor whom its visibility lets in (a share-link site with an
 * active link's `shareKey`); `member` tells which. NOT_FOUND for anyone else.
 */
export async function viewable(deps: Deps, ref: SiteRef | undefined, shareKey: string | undefined, ctx: CallContext) {
  const site = await siteIn(deps, ref);
  const role = await orgRole(deps, site.organizationId, ctx);
  if (allow(role, 'view', 'site')) return { site, member: true };
  const keyOk = !!shareKey && (await deps.store.activeShareKey(site.id, shareKey));
  if (!visitorMayView(site, keyOk)) throw siteNotFound(site.id);
  return { site, member: false };
}

/** A space of the site's organization that the caller sees (content decides); NOT_FOUND naming `field` otherwise. */
export async function spaceOf({ content }: Deps, organizationId: string, spaceId: string, field: string, ctx: CallContext): Promise<SpaceRef> {
  const missing = new NotFoundError(`${field}: space "${spaceId}" not found`);
  if (!spaceId) throw missing;
  const space = await content.getSpace({ spaceId }, ctx).catch((err: unknown) => {
    throw isServiceError(err) && err.code === GrpcStatus.NOT_FOUND ? missing : err;
  });
  if (space.organizationId !== organizationId) throw missing;
  return { spaceId: space.id, title: space.title };
}
