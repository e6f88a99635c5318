import { ContentServiceService } from '@quire/proto/content';
import { SpaceContentServiceService } from '@quire/proto/space-content';
import { SERVICE_NAMES } from '@quire/proto';
import { implement, type Logger, type ServiceBinding } from '@quire/service-kit';
import { collectionHandlers } from './rpc/collections.ts';
import { copyHandlers } from './rpc/copies.ts';
import type { Deps } from './rpc/deps.ts';
import { permissionHandlers } from './rpc/permissions.ts';
import { importHandlers, type ImportDeps } from './rpc/import.ts';
import { linkHandlers, type LinkDeps } from './rpc/links.ts';
import { openApiHandlers } from './rpc/openapi.ts';
import type { RevisionDeps } from './rpc/revision-access.ts';
import { revisionHandlers } from './rpc/revisions.ts';
import { searchHandlers } from './rpc/search.ts';
import { spaceHandlers } from './rpc/spaces.ts';

export function contentService(deps: Deps, log: Logger): ServiceBinding {
  return {
    definition: ContentServiceService,
    implementation: implement({ ...collectionHandlers(deps), ...spaceHandlers(deps), ...permissionHandlers(deps), ...copyHandlers(deps), ...openApiHandlers(deps) }, log),
    name: SERVICE_NAMES.content,
  };
}

/** A space's content: revisions, pages, files, blobs, edits and merges; search, links and imports. */
export function spaceContentService(deps: RevisionDeps & LinkDeps & ImportDeps, log: Logger): ServiceBinding {
  return {
    definition: SpaceContentServiceService,
    implementation: implement({ ...revisionHandlers(deps), ...searchHandlers(deps), ...linkHandlers(deps), ...importHandlers(deps) }, log),
    name: SERVICE_NAMES.spaceContent,
  };
}
