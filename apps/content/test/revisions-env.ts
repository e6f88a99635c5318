import pg from 'pg';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { ApplyChangesRequest, ApplyChangesResponse, Change, GetPageRequest, Page } from '@quire/proto/space-content';
import { Role } from '@quire/policy';
import { connectDb, stopAll } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { afterAll, beforeAll } from 'vitest';
import { startContent, type ContentHarness } from './harness.ts';

// One environment per test file (orgs, content, a database client and a team), shared by the
// revisions contract tests: `useRevisionsEnv()` starts it before the file's tests, and the
// bindings below hold it while they run.
export let orgs: OrgsHarness;
export let h: ContentHarness;
export let db: pg.Client;
export let owner: TestUser, editor: TestUser, reader: TestUser, outsider: TestUser;
export let orgId: string, otherOrgId: string;

export function useRevisionsEnv() {
  beforeAll(async () => {
    orgs = await startOrgs();
    h = await startContent(orgs.address);
    db = await connectDb(h.databaseUrl);
    ({ owner, editor, reader, outsider, orgId, otherOrgId } = await team(orgs, { editor: Role.ROLE_EDIT, reader: Role.ROLE_READ }));
  });
  afterAll(() => stopAll(db, h, orgs));
}

export const sc = () => h.spaceContent;
export const createSpace = (organizationId = orgId, as: TestUser = owner, req: Partial<CreateSpaceRequest> = {}) =>
  h.call<CreateSpaceRequest, Space>(h.client.createSpace, { organizationId, title: 'Handbook', emoji: '', editMode: '', visibility: '', ...req }, as.id);
export const apply = (spaceId: string, revisionId: string, changes: Change[], as: TestUser = editor) =>
  h.callContent<ApplyChangesRequest, ApplyChangesResponse>(sc().applyChanges, { spaceId, revisionId, changes }, as.id);
export const getRevision = (spaceId: string, revisionId = '', as: TestUser = reader, extra = {}) =>
  h.callContent(sc().getRevision, { spaceId, revisionId, metadata: true, withMarkdown: false, withDocuments: false, ...extra }, as.id);
export const getPage = (req: Partial<GetPageRequest> & { spaceId: string }, as: TestUser = reader) =>
  h.callContent<GetPageRequest, Page>(sc().getPage, { revisionId: '', format: '', metadata: true, ...req }, as.id);
export const setRevision = (spaceId: string, revisionId: string, expectedRevisionId: string, as: TestUser = editor) =>
  h.callContent(sc().setSpaceRevision, { spaceId, revisionId, expectedRevisionId }, as.id);
export const insert = (title: string, extra: Record<string, unknown> = {}): Change => ({ insertPage: { fields: { title }, type: '', href: '', ref: '', ...extra } });
export const count = async (table: string) => Number((await db.query(`SELECT count(*) FROM "${table}"`)).rows[0].count);
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEUlEQVR4nGP8z8DwnwEIGGEMAC/WAf7C9rEAAAAAAElFTkSuQmCC', 'base64');

/** A space with pages Intro (markdown "hello", child Setup) and FAQ, made active. */
export async function seeded() {
  const space = await createSpace();
  const r = await apply(space.id, space.revisionId, [
    insert('Intro', { ref: 'intro', markdown: 'hello [faq](./faq)' }),
    insert('Setup', { into: 'intro', ref: 'setup' }),
    insert('FAQ', { ref: 'faq' }),
  ]);
  await setRevision(space.id, r.revision!.id, space.revisionId, owner);
  const id = (ref: string) => r.changes.find((c) => c.ref === ref)!.pageId;
  return { space, revision: r.revision!, intro: id('intro'), setup: id('setup'), faq: id('faq') };
}
