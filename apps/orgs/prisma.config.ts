import { PrismaPg } from '@prisma/adapter-pg';
import type { PrismaConfig } from 'prisma';
import { databaseUrlDefault } from '@quire/service-kit';

// WASM schema engine through the pg adapter: Prisma's CLI then needs no download (TOOLCHAIN).
const connectionString = process.env.DATABASE_URL ?? databaseUrlDefault('orgs');
process.env.DATABASE_URL = connectionString;

export default {
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  adapter: async () => new PrismaPg({ connectionString }),
} satisfies PrismaConfig;
