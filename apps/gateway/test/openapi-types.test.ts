import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { servedDocument, webTypes, WEB_TYPES_FILE } from './openapi-types.ts';

// Made in memory and compared: a route whose schema changed without the web app's types failing here.
it('the web app types are those of the OpenAPI document the gateway serves', { timeout: 180_000 }, async () => {
  const expected = await webTypes(await servedDocument());
  expect(readFileSync(WEB_TYPES_FILE, 'utf8') === expected, `${WEB_TYPES_FILE} is stale: run pnpm --filter @quire/gateway openapi`).toBe(true);
});
