import type { ApiToken, OrgsServiceServer } from '@quire/proto/orgs';
import { listPage, NotFoundError, UnauthenticatedError, type Handlers } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { checkTokenExpiry, checkTokenLabel, scopeFromDb, scopeToDb } from '../domain/credentials.ts';
import { hashToken, newApiToken } from '../domain/ids.ts';
import type { ApiTokenRow } from '../store/index.ts';
import { callerOf, type Deps } from './deps.ts';

type H = Handlers<OrgsServiceServer>;

function presentToken(t: ApiTokenRow): ApiToken {
  return {
    id: t.id,
    label: t.label ?? '',
    scope: scopeFromDb(t.scope),
    createdAt: t.createdAt,
    expiresAt: t.expiresAt ?? undefined,
    lastUsedAt: t.lastUsedAt ?? undefined,
  };
}

export function tokenHandlers({ store, events }: Deps): Pick<H, 'authenticate' | 'listApiTokens' | 'createApiToken' | 'revokeApiToken'> {
  return {
    async authenticate({ token }) {
      const row = token ? await store.tokenByHash(hashToken(token)) : undefined;
      if (!row) throw new UnauthenticatedError('The access token is not valid');
      return { userId: row.userId, scope: scopeFromDb(row.scope), expiresAt: row.expiresAt ?? undefined };
    },

    async listApiTokens({ page }, ctx) {
      return listPage(
        page,
        (p) => store.listTokens(callerOf(ctx), p),
        (items) => items.map(presentToken),
      );
    },

    async createApiToken({ label, scope, expiresAt }, ctx) {
      const userId = callerOf(ctx);
      const secret = newApiToken();
      const row = await store.createToken(userId, newId(), hashToken(secret), checkTokenLabel(label), scopeToDb(scope), checkTokenExpiry(expiresAt, new Date()));
      await events.emit(ctx, {
        entity: 'token',
        verb: 'created',
        target: { type: 'token', id: row.id },
        details: { label: row.label, scope: row.scope, expiresAt: row.expiresAt?.toISOString() ?? null },
      });
      return { token: presentToken(row), secret };
    },

    async revokeApiToken({ tokenId }, ctx) {
      const hash = await store.revokeToken(callerOf(ctx), tokenId);
      if (!hash) throw new NotFoundError('Token not found');
      await events.revoked([hash]);
      await events.emit(ctx, { entity: 'token', verb: 'revoked', target: { type: 'token', id: tokenId } });
      return {};
    },
  };
}
