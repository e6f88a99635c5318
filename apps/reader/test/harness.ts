import type { CreateRevisionRequest, FileContent, PageContent, PutBlobsRequest, PutBlobsResponse, Revision } from '@quire/proto/space-content';
import type { TestUser } from '@quire/orgs/testing';
import { ok, startGateway, type Gateway } from '@quire/gateway/testing';
import { testIdentity } from '@quire/service-kit/testing';
import type { DestinationStream } from 'pino';
import { connectServices } from '../src/clients.ts';
import { loadReaderConfig } from '../src/config.ts';
import { buildReader } from '../src/server/app.ts';

/**
 * The reader over the real services (orgs, content, sites, insights, with the gateway to set
 * sites up as a user would): the process's shared stack, or with `own` a stack of its own; drive
 * it with `reader.app.inject` or, once `listen` is called, over HTTP.
 */
export async function startReader(env: Record<string, string> = {}, options: { gatewayEnv?: Record<string, string>; logStream?: DestinationStream; own?: true } = {}) {
  const g = options.own ? await startGateway(options.gatewayEnv ?? {}, { own: true }) : await startGateway(options.gatewayEnv);
  const { reader, config, stop } = await readerOver(g, env, options.logStream);
  return {
    g,
    reader,
    config,
    async stop() {
      await stop();
      await g.stop();
    },
  };
}

/** The reader over the services of a gateway started elsewhere (stopping it leaves the gateway running). */
export async function readerOver(g: Gateway, env: Record<string, string> = {}, logStream?: DestinationStream) {
  const config = loadReaderConfig({
    ORGS_URL: g.orgs.address,
    CONTENT_URL: g.content.address,
    SITES_URL: g.sites.address,
    INSIGHTS_URL: g.insights.address,
    // The events of the stack's services, which the reader reads ahead on.
    EVENTS_SUBJECT_PREFIX: g.config.EVENTS_SUBJECT_PREFIX,
    LOG_LEVEL: 'silent',
    READER_FRESHNESS_MS: '0',
    ...env,
  });
  const services = connectServices(config, testIdentity('reader'));
  const reader = await buildReader(config, services, logStream);
  await reader.app.ready();
  return {
    reader,
    config,
    async stop() {
      await reader.app.close();
      for (const c of services.channels) c.client.close();
    },
  };
}

export const page = (title: string, markdown: string, pages: PageContent[] = [], extra: Partial<PageContent> = {}): PageContent => ({
  id: '',
  type: 'document',
  fields: { title },
  markdown,
  href: '',
  pages,
  ...extra,
});

/** A file of a space, with its bytes. */
export type SpaceFile = Omit<FileContent, 'blob'> & { data: Buffer };

/** A space of `orgId` with these pages (and files, their bytes stored first) as its active revision. */
export async function spaceWith(g: Gateway, owner: TestUser, orgId: string, title: string, pages: PageContent[], files: SpaceFile[] = []): Promise<string> {
  const id = (await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title }), 201)).id as string;
  const { blobs } = files.length
    ? await g.content.callContent<PutBlobsRequest, PutBlobsResponse>(g.content.spaceContent.putBlobs, { data: files.map((f) => f.data) }, owner.id)
    : { blobs: [] };
  await setPages(
    g,
    owner,
    id,
    pages,
    files.map(({ data: _, ...f }, i) => ({ ...f, blob: blobs[i]!.blob })),
  );
  return id;
}

export async function setPages(g: Gateway, owner: TestUser, spaceId: string, pages: PageContent[], files: FileContent[] = []) {
  await g.content.callContent<CreateRevisionRequest, Revision>(
    g.content.spaceContent.createRevision,
    { spaceId, parentRevisionId: '', pages, files, setActive: true, type: '' },
    owner.id,
  );
}
