import { PrismaPg } from '@prisma/adapter-pg';
import { databaseUrlDefault } from './config.js';

/**
 * A service's `prisma.config.ts`: the WASM schema engine through the pg adapter, so Prisma's CLI
 * needs no download (TOOLCHAIN "Prisma"), on `DATABASE_URL` or the service's default database.
 */
export function prismaConfig(service: string) {
  const connectionString = process.env.DATABASE_URL ?? databaseUrlDefault(service);
  // The schema's datasource reads it too; without that `prisma generate` wants a native engine.
  process.env.DATABASE_URL = connectionString;
  return {
    experimental: { adapter: true as const },
    engine: 'js' as const,
    schema: 'prisma/schema.prisma',
    adapter: async () => new PrismaPg({ connectionString }),
  };
}
