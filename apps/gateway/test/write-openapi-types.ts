import { writeFileSync } from 'node:fs';
import { servedDocument, webTypes, WEB_TYPES_FILE } from './openapi-types.ts';

// `pnpm --filter @quire/gateway openapi`: needs NATS, as the gateway does.
writeFileSync(WEB_TYPES_FILE, await webTypes(await servedDocument()));
console.log(`wrote ${WEB_TYPES_FILE}`);
