import { ContentServiceService } from '@quire/proto/content';
import { SERVICE_NAMES } from '@quire/proto';
import { implement, type Logger, type ServiceBinding } from '@quire/service-kit';
import { collectionHandlers } from './rpc/collections.ts';
import type { Deps } from './rpc/deps.ts';
import { permissionHandlers } from './rpc/permissions.ts';
import { spaceHandlers } from './rpc/spaces.ts';

export function contentService(deps: Deps, log: Logger): ServiceBinding {
  return { definition: ContentServiceService, implementation: implement({ ...collectionHandlers(deps), ...spaceHandlers(deps), ...permissionHandlers(deps) }, log), name: SERVICE_NAMES.content };
}
