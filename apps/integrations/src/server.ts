import { IntegrationsServiceService } from '@quire/proto/integrations';
import { SERVICE_NAMES } from '@quire/proto';
import { implement, type Logger, type ServiceBinding } from '@quire/service-kit';
import type { Deps } from './rpc/deps.ts';
import { integrationHandlers } from './rpc/integrations.ts';

export function integrationsService(deps: Deps, log: Logger): ServiceBinding {
  return { definition: IntegrationsServiceService, implementation: implement(integrationHandlers(deps), log), name: SERVICE_NAMES.integrations };
}
