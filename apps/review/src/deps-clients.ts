import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { SpaceContentServiceClient, SpaceContentServiceService } from '@quire/proto/space-content';
import { MERGE_TIMEOUT_MS } from './domain/change-requests.ts';
import { createClient, promiseClient, type ServiceIdentity } from '@quire/service-kit';

/** The channels to orgs and content (both of content's services share one address), and their closing. */
export function connectUpstreams(orgsUrl: string, contentUrl: string, identity: ServiceIdentity) {
  const orgs = createClient(OrgsServiceClient, orgsUrl);
  const content = createClient(ContentServiceClient, contentUrl);
  const spaceContent = createClient(SpaceContentServiceClient, contentUrl);
  return {
    orgs: promiseClient(orgs, OrgsServiceService, { identity, audience: 'orgs' }),
    content: promiseClient(content, ContentServiceService, { identity, audience: 'content' }),
    // Merges of large spaces take longer than a read.
    spaceContent: promiseClient(spaceContent, SpaceContentServiceService, { identity, audience: 'content' }, MERGE_TIMEOUT_MS),
    close() {
      for (const c of [orgs, content, spaceContent]) c.close();
    },
  };
}
