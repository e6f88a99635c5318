import { SitesServiceService } from '@quire/proto/sites';
import { SERVICE_NAMES } from '@quire/proto';
import { implement, type Logger, type ServiceBinding } from '@quire/service-kit';
import type { Deps } from './rpc/deps.ts';
import { publishedHandlers } from './rpc/published.ts';
import { publishingHandlers } from './rpc/publishing.ts';
import { shareLinkHandlers } from './rpc/share-links.ts';
import { siteHandlers } from './rpc/sites.ts';
import { structureHandlers } from './rpc/structure.ts';

export function sitesService(deps: Deps, log: Logger): ServiceBinding {
  return {
    definition: SitesServiceService,
    implementation: implement({ ...siteHandlers(deps), ...shareLinkHandlers(deps), ...structureHandlers(deps), ...publishedHandlers(deps), ...publishingHandlers(deps) }, log),
    name: SERVICE_NAMES.sites,
  };
}
