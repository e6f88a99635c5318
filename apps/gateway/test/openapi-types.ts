import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { testIdentity, testSuffix } from '@quire/service-kit/testing';
import { buildApp } from '../src/app.ts';
import { connectServices } from '../src/clients.ts';
import { loadGatewayConfig } from '../src/config.ts';

// The web app's types of the public API are made from the OpenAPI document the gateway serves
// (openapi-typescript) and committed, so that the web app builds without a running gateway and a
// change to the API shows in review: `pnpm --filter @quire/gateway openapi` writes them, and
// openapi-types.test.ts fails when they are stale.

export const WEB_TYPES_FILE = fileURLToPath(new URL('../../web/src/gen/api.d.ts', import.meta.url));

const HEADER = "// Written by `pnpm --filter @quire/gateway openapi` from the gateway's OpenAPI document: do not edit.\n\n";

/** The document `/v1/openapi.json` serves with the default settings (no service is called). */
export async function servedDocument(): Promise<OpenAPI3> {
  const config = loadGatewayConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_BUCKET: `openapi_${testSuffix()}` });
  const services = connectServices(config, testIdentity('gateway'));
  const app = await buildApp(config, services);
  try {
    await app.ready();
    return app.swagger() as OpenAPI3;
  } finally {
    await app.limiter.drop();
    await app.close();
    for (const c of services.channels) c.client.close();
  }
}

/** The types file's text for `doc`. */
export async function webTypes(doc: OpenAPI3): Promise<string> {
  return HEADER + astToString(await openapiTS(doc));
}
