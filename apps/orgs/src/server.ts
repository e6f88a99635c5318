import { OrgsServiceService, type OrgsServiceServer } from '@quire/proto/orgs';
import { SERVICE_NAMES } from '@quire/proto';
import { implement, type Handlers, type Logger, type ServiceBinding } from '@quire/service-kit';
import type { Deps } from './rpc/deps.ts';
import { auditHandlers } from './rpc/audit.ts';
import { inviteHandlers } from './rpc/invites.ts';
import { memberHandlers } from './rpc/members.ts';
import { oidcHandlers } from './rpc/oidc.ts';
import { organizationHandlers } from './rpc/organizations.ts';
import { peopleHandlers } from './rpc/people.ts';
import { sessionHandlers } from './rpc/sessions.ts';
import { ssoHandlers } from './rpc/sso.ts';
import { ssoSignInHandlers } from './rpc/sso-signin.ts';
import { teamHandlers } from './rpc/teams.ts';
import { tokenHandlers } from './rpc/tokens.ts';
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
    ...oidcHandlers(deps),
    ...ssoSignInHandlers(deps),
    ...translationHandlers(deps),
    ...sessionHandlers(deps),
    ...tokenHandlers(deps),
    ...auditHandlers(deps),
  };
  return { definition: OrgsServiceService, implementation: implement(handlers, log), name: SERVICE_NAMES.orgs };
}
