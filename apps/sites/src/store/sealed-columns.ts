import type { SealedColumn } from '@quire/service-kit/sealed';
import { visitorKeyContext } from '../domain/visitor-token.ts';

/** Where sites keeps values sealed with QUIRE_SECRETS_KEY (`quire secrets reseal` rewrites them). */
export const sealedColumns: readonly SealedColumn[] = [{ table: 'Site', column: 'visitorKeySealed', key: 'id', context: visitorKeyContext }];
