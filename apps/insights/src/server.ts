import { InsightsServiceService } from '@quire/proto/insights';
import { SERVICE_NAMES } from '@quire/proto';
import { implement, type Logger, type ServiceBinding } from '@quire/service-kit';
import type { Deps } from './rpc/deps.ts';
import { insightsHandlers } from './rpc/insights.ts';

export function insightsService(deps: Deps, log: Logger): ServiceBinding {
  return { definition: InsightsServiceService, implementation: implement(insightsHandlers(deps), log), name: SERVICE_NAMES.insights };
}
