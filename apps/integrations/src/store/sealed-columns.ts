import type { SealedColumn } from '@quire/service-kit/sealed';
import { secretsContext } from '../domain/secrets.ts';

/** Where integrations keeps values sealed with QUIRE_SECRETS_KEY (`quire secrets reseal` rewrites them). */
export const sealedColumns: readonly SealedColumn[] = [{ table: 'Integration', column: 'secrets', key: 'name', context: secretsContext }];
