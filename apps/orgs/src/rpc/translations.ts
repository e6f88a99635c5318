import type { OrgsServiceServer } from '@quire/proto/orgs';
import { listPage, NotFoundError, type Handlers } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { allow } from '@quire/policy';
import { authorize } from '../domain/policy.ts';
import { checkLanguages, checkTitle } from '../domain/translations.ts';
import { presentTranslation } from '../presenters.ts';
import type { Store } from '../store/index.ts';
import { callerOf, type Deps } from './deps.ts';
import { roleIn } from './organizations.ts';

type H = Handlers<OrgsServiceServer>;

async function translationOf(store: Store, organizationId: string, id: string) {
  const t = await store.getTranslation(organizationId, id);
  if (!t) throw new NotFoundError('Translation settings not found');
  return t;
}

/** Members read translation settings; admins change them, like the organization's other settings. */
export function translationHandlers({ store }: Deps): Pick<H, 'listTranslations' | 'createTranslation' | 'getTranslation' | 'updateTranslation' | 'deleteTranslation'> {
  const access = async (organizationId: string, userId: string, action: 'listMembers' | 'admin') => {
    const role = await roleIn(store, organizationId, userId);
    authorize(role, action);
    return { view: true, edit: allow(role, 'admin', 'organization') };
  };

  return {
    async listTranslations({ organizationId, page }, ctx) {
      const permissions = await access(organizationId, callerOf(ctx), 'listMembers');
      return listPage(
        page,
        (p) => store.listTranslations(organizationId, p),
        (items) => items.map((t) => presentTranslation(t, permissions)),
      );
    },

    async createTranslation({ organizationId, title, languages }, ctx) {
      const permissions = await access(organizationId, callerOf(ctx), 'admin');
      const t = await store.createTranslation({ id: newId(), organizationId, title: checkTitle(title), languages: checkLanguages(languages) });
      return presentTranslation(t, permissions);
    },

    async getTranslation({ organizationId, translationSettingsId }, ctx) {
      const permissions = await access(organizationId, callerOf(ctx), 'listMembers');
      return presentTranslation(await translationOf(store, organizationId, translationSettingsId), permissions);
    },

    async updateTranslation({ organizationId, translationSettingsId, title, setLanguages, languages }, ctx) {
      const permissions = await access(organizationId, callerOf(ctx), 'admin');
      await translationOf(store, organizationId, translationSettingsId);
      const data = { title: checkTitle(title), ...(setLanguages ? { languages: checkLanguages(languages) } : {}) };
      return presentTranslation(await store.updateTranslation(translationSettingsId, data), permissions);
    },

    async deleteTranslation({ organizationId, translationSettingsId }, ctx) {
      await access(organizationId, callerOf(ctx), 'admin');
      if (!(await store.deleteTranslation(organizationId, translationSettingsId))) throw new NotFoundError('Translation settings not found');
      return {};
    },
  };
}
