import type { ContentServiceServer } from '@quire/proto/content';
import type { OpenApiSpecRef, OpenApiSpecSource } from '@quire/proto/openapi';
import { listPage, AlreadyExistsError, callsAsItself, InvalidArgumentError, NotFoundError, PermissionDeniedError, type CallContext, type Handlers } from '@quire/service-kit';
import { allow, type Role } from '@quire/policy';
import { fetchPublic } from '@quire/service-kit/outbound';
import { OPENAPI_SPEC } from '@quire/proto/limits';
import { serviceRole } from '../domain/access.ts';
import { checkSlug, checkSpecDocument, checkVisibility, SPEC_FETCH_TIMEOUT_MS } from '../domain/openapi.ts';
import { presentOpenApiSpec, presentOpenApiVersion } from '../presenters.ts';
import type { OpenApiSpecRow } from '../store/openapi.ts';
import { callerOf, memberAccessIn, type Deps } from './deps.ts';

type H = Pick<
  Handlers<ContentServiceServer>,
  | 'listOpenApiSpecs'
  | 'getOpenApiSpec'
  | 'saveOpenApiSpec'
  | 'updateOpenApiSpecVisibility'
  | 'deleteOpenApiSpec'
  | 'listOpenApiSpecVersions'
  | 'getOpenApiSpecVersion'
  | 'getOpenApiSpecVersionContent'
>;

/** Who may change the organization's specs (GitBook's createOpenAPISpec). */
const canEdit = (role: Role) => allow(role, 'createOpenApiSpec', 'organization');

export function openApiHandlers(deps: Deps): H {
  const specs = deps.store.openApi;

  /**
   * The caller's role in the organization: its members see the specs, others find none. The reader
   * reads as itself (for no user) the specs of the organization whose published page shows them.
   */
  async function roleIn(organizationId: string, ctx: CallContext): Promise<Role> {
    if (callsAsItself(ctx, 'reader')) return serviceRole(true);
    callerOf(ctx);
    const { orgRole } = await memberAccessIn(deps, organizationId, ctx);
    if (!allow(orgRole, 'viewOpenApiSpecs', 'organization')) throw new NotFoundError(`organization: "${organizationId}" not found`);
    return orgRole;
  }

  async function editorIn(organizationId: string, ctx: CallContext): Promise<Role> {
    const role = await roleIn(organizationId, ctx);
    if (!canEdit(role)) throw new PermissionDeniedError(`Changing the OpenAPI specs of "${organizationId}" needs the create role`);
    return role;
  }

  const refOf = (ref: OpenApiSpecRef | undefined) => {
    if (!ref) throw new InvalidArgumentError('spec: required');
    return ref;
  };

  async function found(ref: OpenApiSpecRef): Promise<OpenApiSpecRow> {
    const spec = await specs.get(ref.organizationId, ref.slug);
    if (!spec) throw new NotFoundError(`specSlug: no OpenAPI spec "${ref.slug}" in this organization`);
    return spec;
  }

  /** The source's document: the text given, or what its URL answers (public addresses only, bounded). */
  async function documentOf(source: OpenApiSpecSource | undefined) {
    if (source?.text !== undefined) return { document: await checkSpecDocument(source.text, 'source.text'), sourceUrl: null };
    if (source?.url === undefined) throw new InvalidArgumentError('source: give url or text');
    // Read up to the bound in UTF-8's widest form; its characters are counted once decoded.
    const got = await fetchPublic(source.url, { maxBytes: OPENAPI_SPEC.document.max * 4, timeoutMs: SPEC_FETCH_TIMEOUT_MS }, { field: 'source.url' });
    if (got.status < 200 || got.status >= 300) throw new InvalidArgumentError(`source.url: ${source.url} answered ${got.status}`);
    return { document: await checkSpecDocument(got.body.toString('utf8'), 'source.url'), sourceUrl: source.url };
  }

  /** A version of a spec the caller sees (the latest when `versionId` is empty), read by `read`. */
  async function versionOf<T>(req: { spec?: OpenApiSpecRef; versionId: string }, ctx: CallContext, read: (specId: string, id: string) => Promise<T | null>): Promise<T> {
    const ref = refOf(req.spec);
    await roleIn(ref.organizationId, ctx);
    const spec = await found(ref);
    const id = req.versionId || spec.lastVersionId;
    const version = id ? await read(spec.id, id) : null;
    if (!version) throw new NotFoundError(`versionId: no version "${req.versionId || 'latest'}" of the OpenAPI spec "${ref.slug}"`);
    return version;
  }

  return {
    async listOpenApiSpecs(req, ctx) {
      const role = await roleIn(req.organizationId, ctx);
      return listPage(
        req.page,
        (page) => specs.list(req.organizationId, page),
        (items) => items.map((s) => presentOpenApiSpec(s, canEdit(role))),
      );
    },

    async getOpenApiSpec(req, ctx) {
      const ref = refOf(req.spec);
      const role = await roleIn(ref.organizationId, ctx);
      return presentOpenApiSpec(await found(ref), canEdit(role));
    },

    async saveOpenApiSpec(req, ctx) {
      const ref = refOf(req.spec);
      checkSlug(ref.slug);
      await editorIn(ref.organizationId, ctx);
      const { document, sourceUrl } = await documentOf(req.source);
      const saved = await specs.save({ organizationId: ref.organizationId, slug: ref.slug }, document, sourceUrl, req.createOnly ? 'create' : 'upsert');
      if (!saved) throw new AlreadyExistsError(`slug: an OpenAPI spec "${ref.slug}" already exists in this organization`);
      return { spec: presentOpenApiSpec(saved.spec, true), created: saved.created };
    },

    async updateOpenApiSpecVisibility(req, ctx) {
      const ref = refOf(req.spec);
      const visibility = checkVisibility(req.visibility);
      await editorIn(ref.organizationId, ctx);
      return presentOpenApiSpec(await specs.setVisibility((await found(ref)).id, visibility), true);
    },

    async deleteOpenApiSpec(req, ctx) {
      const ref = refOf(req.spec);
      await editorIn(ref.organizationId, ctx);
      return { deleted: await specs.delete(ref.organizationId, ref.slug) };
    },

    async listOpenApiSpecVersions(req, ctx) {
      const ref = refOf(req.spec);
      await roleIn(ref.organizationId, ctx);
      const spec = await found(ref);
      return listPage(
        req.page,
        (page) => specs.versions(spec.id, page),
        (items) => items.map(presentOpenApiVersion),
      );
    },

    async getOpenApiSpecVersion(req, ctx) {
      return presentOpenApiVersion(await versionOf(req, ctx, specs.version));
    },

    async getOpenApiSpecVersionContent(req, ctx) {
      const version = await versionOf(req, ctx, specs.content);
      return { version: presentOpenApiVersion(version), json: version.json };
    },
  };
}
