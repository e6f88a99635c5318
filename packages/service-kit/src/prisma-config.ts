import { PrismaPg } from '@prisma/adapter-pg';
import { databaseUrlDefault } from './config.js';

/**
 * A service's `prisma.config.ts`: the WASM schema engine through the pg adapter, so Prisma's CLI
 * needs no download, on `DATABASE_URL` or the service's default database; `schema` is the
 * service's own unless named (`quire migrate` names each service's from one config).
 */
export function prismaConfig(service: string, schema = 'prisma/schema.prisma') {
  const connectionString = process.env.DATABASE_URL ?? databaseUrlDefault(service);
  // The schema's datasource reads it too; without that `prisma generate` wants a native engine.
  process.env.DATABASE_URL = connectionString;
  return {
    experimental: { adapter: true as const },
    engine: 'js' as const,
    schema,
    adapter: async () => new PrismaPg({ connectionString }),
  };
}
