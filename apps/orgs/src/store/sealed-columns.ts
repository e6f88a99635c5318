import type { SealedColumn } from '@quire/service-kit/sealed';
import { clientSecretContext } from '../domain/sso.ts';

/** Where orgs keeps values sealed with QUIRE_SECRETS_KEY (`quire secrets reseal` rewrites them). */
export const sealedColumns: readonly SealedColumn[] = [{ table: 'OidcProvider', column: 'clientSecret', key: 'id', context: clientSecretContext }];
