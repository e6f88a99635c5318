import type { ContentServiceClient, Space } from '@quire/proto/content';
import type { OrgsServiceClient, User } from '@quire/proto/orgs';
import type { SpaceContentServiceClient } from '@quire/proto/space-content';
import type { PdfPrinter } from '@quire/render/pdf';
import { STATE_EVENTS, type EventSink } from '@quire/service-kit/nats';
import { isRefusal, NotFoundError, PermissionDeniedError, type CallContext, type Caller, type PromiseClient } from '@quire/service-kit';
import { parseReference } from '../domain/change-requests.ts';
import type { ExportLimits } from '../domain/exports.ts';
import type { ChangeRequestRow, Store } from '../store/index.ts';

export interface Deps {
  store: Store;
  content: PromiseClient<ContentServiceClient>;
  spaceContent: PromiseClient<SpaceContentServiceClient>;
  orgs: PromiseClient<OrgsServiceClient>;
  /** The counters of spaces as state events, for content's copies. */
  events: EventSink;
  /** Change-request PDFs: one Chromium for the process. */
  printer: PdfPrinter;
  /** Bounds of an export (DEFAULT_EXPORT_LIMITS when unset). */
  exportLimits?: ExportLimits;
  /** A PDF export job's print time limit (a job holds no request); the printer's own when unset. */
  exportPdfTimeoutMs?: number;
  /** Export jobs: queued here, run by the export workers. */
  exports: { publish: (msg: ExportJobMessage) => Promise<void> };
}

/** An export job's message: only its id (the job's row says the rest). */
export interface ExportJobMessage {
  jobId: string;
}

export { callerOf } from '@quire/service-kit';

export type Permission = 'view' | 'edit' | 'comment' | 'merge' | 'review' | 'admin';

/** The space as the caller sees it (NOT_FOUND when it cannot), with the caller's permissions. */
export const spaceOf = ({ content }: Deps, spaceId: string, ctx: CallContext): Promise<Space> => content.getSpace({ spaceId }, ctx);

/** PERMISSION_DENIED unless the caller has `permission` on the space. */
export function need(space: Space, permission: Permission, doing: string): void {
  if (!space.permissions?.[permission]) throw new PermissionDeniedError(`You need the ${permission} permission on space "${space.id}" to ${doing}`);
}

export const changeRequestNotFound = (ref: string) => new NotFoundError(`Change request "${ref}" not found`);

/** The change request of the space by id or number; NOT_FOUND otherwise. */
export async function changeRequestIn({ store }: Deps, spaceId: string, ref: string) {
  const cr = await store.findChangeRequest(spaceId, parseReference(ref));
  if (!cr) throw changeRequestNotFound(ref);
  return cr;
}

/** The space and one of its change requests, the caller needing `permission` on the space. */
export async function spaceAndChangeRequest(deps: Deps, req: { spaceId: string; changeRequest: string }, ctx: CallContext, permission?: [Permission, string]) {
  const space = await spaceOf(deps, req.spaceId, ctx);
  if (permission) need(space, ...permission);
  return { space, cr: await changeRequestIn(deps, space.id, req.changeRequest) };
}

/**
 * `checks` of a merge made before content's call; a refusal among them (not found, not open, under
 * way) is answered only once the caller is known to see the space and may merge in it, or else
 * as content would answer (NOT_FOUND, PERMISSION_DENIED).
 */
export async function refusedOnlyToMergers<T>(deps: Deps, spaceId: string, ctx: CallContext, checks: () => Promise<T>): Promise<T> {
  try {
    return await checks();
  } catch (err) {
    if (isRefusal(err)) need(await spaceOf(deps, spaceId, ctx), 'merge', 'merge a change request');
    throw err;
  }
}

/** The users by id in one call; one the caller may not see (or gone) shows only its id. */
export async function usersById({ orgs }: Deps, ids: Iterable<string | null | undefined>, ctx: Caller): Promise<(id: string) => User> {
  const wanted = [...new Set([...ids].filter((id): id is string => !!id))];
  const { users } = wanted.length ? await orgs.batchGetUsers({ userIds: wanted, organizationId: '' }, ctx) : { users: [] };
  const byId = new Map(users.map((u) => [u.id, u]));
  return (id) => byId.get(id) ?? { id, displayName: '', email: '' };
}

export type { ChangeRequestRow };

const { entity, verb } = STATE_EVENTS.spaceCounters;

/**
 * After a change of what the space's counters count: the counters now, at a raised version, to
 * content at once (the next Space shown counts the change), unless `call` is false (a merge: one
 * call to content), and as a state event on EVENTS (which feeds content's copy whatever that call
 * missed, and alone after a merge). The change is made: neither failing fails it.
 */
export async function countersChanged(
  { store, content, events }: Deps,
  space: Pick<Space, 'id' | 'organizationId'>,
  ctx: Pick<CallContext, 'log' | 'userId' | 'ip' | 'userAgent'>,
  { call = true } = {},
): Promise<void> {
  let counters: Awaited<ReturnType<Store['bumpCounters']>>;
  try {
    counters = await store.bumpCounters(space.id);
  } catch (err) {
    ctx.log.error({ err, spaceId: space.id }, 'space counters not versioned; content keeps the previous ones');
    return;
  }
  const copy = { spaceId: space.id, ...counters };
  await Promise.all([
    call &&
      content
        .recordSpaceCounters({ counters: [copy] }, {})
        .catch((err: unknown) => ctx.log.warn({ err, spaceId: space.id }, 'space counters not recorded by content; the event brings them')),
    events.emit(ctx, { entity, verb, organizationId: space.organizationId, target: { type: 'space', id: space.id }, details: copy }),
  ]);
}
