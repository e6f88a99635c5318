import { OrgsServiceService, type OrgsServiceServer } from '@quire/proto/orgs';
import { SERVICE_NAMES } from '@quire/proto';
import { implement, type Handlers, type Logger, type ServiceBinding } from '@quire/service-kit';
import type { Deps } from './rpc/deps.ts';
import { inviteHandlers } from './rpc/invites.ts';
import { memberHandlers } from './rpc/members.ts';
import { organizationHandlers } from './rpc/organizations.ts';
import { peopleHandlers } from './rpc/people.ts';
import { ssoHandlers } from './rpc/sso.ts';
import { teamHandlers } from './rpc/teams.ts';
import { translationHandlers } from './rpc/translations.ts';
import { userHandlers } from './rpc/users.ts';

export function orgsService(deps: Deps, log: Logger): ServiceBinding {
  const handlers: Handlers<OrgsServiceServer> = {
    ...userHandlers(deps),
    ...organizationHandlers(deps),
    ...memberHandlers(deps),
    ...teamHandlers(deps),
    ...inviteHandlers(deps),
    ...peopleHandlers(deps),
    ...ssoHandlers(deps),
    ...translationHandlers(deps),
  };
  return { definition: OrgsServiceService, implementation: implement(handlers, log), name: SERVICE_NAMES.orgs };
}
