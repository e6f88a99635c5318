import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { OrgsServiceClient, OrgsServiceService, TokenScope } from '@quire/proto/orgs';
import { ReviewServiceClient, ReviewServiceService } from '@quire/proto/review';
import { SpaceContentServiceClient, SpaceContentServiceService } from '@quire/proto/space-content';
import { pageEditing } from '@quire/policy';
import { connectUpstreams, isRefusal, type Caller, type Logger, type ServiceIdentity } from '@quire/service-kit';
import type { JSONDocument } from '@quire/document';
import type { CollabConfig } from './config.ts';
import { Refusal, type Credential } from './domain/credentials.ts';
import type { PageName } from './domain/names.ts';

/** Who edits, as every service call names them. */
export interface Member {
  userId: string;
  /** What the member may do on the page: `read` connects read-only. */
  access: Access;
  /** The space's organization: its members' and permissions' events concern this member. */
  organizationId: string;
  /** A read-only API token: reads whatever the member's role. */
  readToken: boolean;
}

export type Access = 'write' | 'read';

/** The services collab calls, as the member: orgs to know them, review and content for the page. */
export function connectPages(config: CollabConfig, identity: ServiceIdentity, log: Logger) {
  const { clients, channels, close } = connectUpstreams(
    identity,
    {
      orgs: { client: OrgsServiceClient, definition: OrgsServiceService, address: config.ORGS_URL, audience: 'orgs' },
      content: { client: ContentServiceClient, definition: ContentServiceService, address: config.CONTENT_URL, audience: 'content' },
      spaceContent: { client: SpaceContentServiceClient, definition: SpaceContentServiceService, address: config.CONTENT_URL, audience: 'content' },
      review: { client: ReviewServiceClient, definition: ReviewServiceService, address: config.REVIEW_URL, audience: 'review' },
    },
    { timeoutMs: config.GRPC_TIMEOUT_MS, log },
  );
  const { orgs, content, spaceContent, review } = clients;
  const ref = (p: PageName) => ({ spaceId: p.spaceId, changeRequest: p.changeRequestId });

  return {
    channels,
    close,

    /** Who a credential names (orgs' Authenticate or AuthenticateSession, as the gateway asks), and whether it only reads; a refusal once it has ended. */
    async authenticate(credential: Credential, caller: Omit<Caller, 'userId'>): Promise<{ userId: string; readToken: boolean }> {
      const who = await (
        credential.kind === 'token' ? orgs.authenticate({ token: credential.secret }, caller) : orgs.authenticateSession({ session: credential.secret }, caller)
      ).catch((err: unknown) => {
        if (!isRefusal(err)) throw err;
        throw new Refusal(credential.kind === 'token' ? 'the access token is not valid' : 'the session has ended');
      });
      return { userId: who.userId, readToken: who.scope === TokenScope.TOKEN_SCOPE_READ };
    },

    /** The member a credential names, and what they may do on the page. */
    async admit(credential: Credential, page: PageName, caller: Omit<Caller, 'userId'>): Promise<Member> {
      const { userId, readToken } = await this.authenticate(credential, caller);
      return { userId, readToken, ...(await this.access(page, { ...caller, userId }, readToken)) };
    },

    /** What `caller` may do on the page now (asked again when their access may have changed), with the space's organization. */
    async access(page: PageName, caller: Caller, readToken: boolean): Promise<{ access: Access; organizationId: string; status: string }> {
      // Another organization's ids, or ones the member cannot see, are simply not found; a service
      // failing is not a refusal (the member keeps what they had).
      const notFound = (err?: unknown) => {
        if (err !== undefined && !isRefusal(err)) throw err;
        throw new Refusal('change request not found');
      };
      const cr = await review.getChangeRequest(ref(page), caller).catch(notFound);
      // By id only: its number would name the same page as a second document.
      if (cr.id !== page.changeRequestId) notFound();
      const space = await content.getSpace({ spaceId: page.spaceId }, caller).catch(notFound);
      const access = pageEditing(space.permissions ?? { view: false, edit: false }, cr.status);
      if (!access) notFound();
      return { access: readToken ? 'read' : access!, organizationId: space.organizationId, status: cr.status };
    },

    /** The page's document in the change request's current revision. */
    async load(page: PageName, caller: Caller): Promise<JSONDocument> {
      const { revision } = await review.getChangeRequestRevision(ref(page), caller);
      const found = await spaceContent.getPage({ spaceId: page.spaceId, revisionId: revision, pageId: page.pageId, format: 'document', metadata: false }, caller);
      if (found.type !== 'document' || found.documentJson === undefined) throw new Refusal(`page ${page.pageId} has no document to edit (a ${found.type})`);
      return JSON.parse(found.documentJson) as JSONDocument;
    },

    /** The page's co-editing state (a Yjs update) as last stored; empty when none. */
    async editingState(page: PageName, caller: Caller): Promise<Uint8Array> {
      return (await review.getPageEditingState({ ...ref(page), pageId: page.pageId }, caller)).state;
    },

    /** Stores the page's co-editing state beside its change request, as `caller`. */
    async storeEditingState(page: PageName, state: Uint8Array, caller: Caller): Promise<void> {
      await review.storePageEditingState({ ...ref(page), pageId: page.pageId, editing: { state: Buffer.from(state) }, ifAbsent: false }, caller);
    },

    /** Stores the page's first co-editing state unless one is there already: the state stored, this one or another replica's. */
    async firstEditingState(page: PageName, state: Uint8Array, caller: Caller): Promise<Uint8Array> {
      return (await review.storePageEditingState({ ...ref(page), pageId: page.pageId, editing: { state: Buffer.from(state) }, ifAbsent: true }, caller)).state;
    },

    /** Writes the page's document into the change request (review's UpdateChangeRequestContent, as the web app's save), as `caller`. */
    async save(page: PageName, document: JSONDocument, caller: Caller): Promise<void> {
      await review.updateChangeRequestContent({ ...ref(page), changes: [{ updatePage: { page: page.pageId, move: false, documentJson: JSON.stringify(document) } }] }, caller);
    },
  };
}

export type Pages = ReturnType<typeof connectPages>;
