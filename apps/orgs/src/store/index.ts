import { storeOf, type Database } from '@quire/service-kit/prisma';
import { PrismaClient, type Role as DbRole } from '../generated/prisma/client.ts';
import { auditStore } from './audit.ts';
import { inviteStore } from './invites.ts';
import { memberStore } from './members.ts';
import { organizationStore } from './organizations.ts';
import { sessionStore } from './sessions.ts';
import { ssoStore } from './sso.ts';
import { teamStore } from './teams.ts';
import { tokenStore } from './tokens.ts';
import { translationStore } from './translations.ts';
import { userStore } from './users.ts';

export type Db = Database<PrismaClient>;
export type { DbRole };
export type { AuditEntryRow } from './audit.ts';
export type { LinkInviteRow } from './invites.ts';
export type { MemberRow } from './members.ts';
export type { OrganizationRow } from './organizations.ts';
export type { OidcProviderRow, SamlProviderRow } from './sso.ts';
export type { TeamRole, TeamRow } from './teams.ts';
export type { ApiTokenRow, DbTokenScope } from './tokens.ts';
export type { TranslationRow } from './translations.ts';
export type { UserRow } from './users.ts';

/**
 * All of the orgs service's queries, one file per aggregate. Finders take the caller where
 * visibility depends on it, so that what the caller may not see and what does not exist come back
 * alike (null or []). The reads behind every authenticated call run as prepared statements;
 * everything else goes through Prisma.
 */
export const { createStore, openStore } = storeOf(PrismaClient)(
  tokenStore,
  sessionStore,
  userStore,
  auditStore,
  organizationStore,
  memberStore,
  inviteStore,
  teamStore,
  ssoStore,
  translationStore,
);

export type Store = ReturnType<typeof createStore>;
