import type { OrgsServiceServer } from '@quire/proto/orgs';
import { listPage, InvalidArgumentError, NotFoundError, type Handlers } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { authorize } from '../domain/policy.ts';
import { isRole } from '@quire/policy';
import { roleToDb } from '../domain/roles.ts';
import { presentLinkInvite } from '../presenters.ts';
import { callerOf, type Deps } from './deps.ts';
import { organizationOf } from './organizations.ts';

type H = Handlers<OrgsServiceServer>;

export function inviteHandlers({ store }: Deps): Pick<H, 'listLinkInvites' | 'createLinkInvite' | 'deleteLinkInvite'> {
  return {
    async listLinkInvites({ organizationId, page }, ctx) {
      const { organization, role } = await organizationOf(store, organizationId, callerOf(ctx));
      authorize(role, 'manageInvites');
      return listPage(
        page,
        (p) => store.listLinkInvites(organizationId, p),
        (items) => items.map((i) => presentLinkInvite(i, organization.defaultRole)),
      );
    },

    async createLinkInvite({ organizationId, role: inviteRole }, ctx) {
      const caller = callerOf(ctx);
      const { organization, role } = await organizationOf(store, organizationId, caller);
      authorize(role, 'manageInvites');
      if (!isRole(inviteRole)) throw new InvalidArgumentError('role: not a role');
      const invite = await store.createLinkInvite({ id: newId(), organizationId, role: roleToDb(inviteRole), createdBy: caller });
      return presentLinkInvite(invite, organization.defaultRole);
    },

    async deleteLinkInvite({ organizationId, inviteId }, ctx) {
      const { role } = await organizationOf(store, organizationId, callerOf(ctx));
      authorize(role, 'manageInvites');
      if (!(await store.deleteLinkInvite(organizationId, inviteId))) throw new NotFoundError('Invite not found');
      return {};
    },
  };
}
