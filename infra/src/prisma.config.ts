import type { PrismaConfig } from 'prisma';
import { prismaConfig } from '@quire/service-kit/prisma-config';

// The one config `quire migrate` runs Prisma's CLI with: the service it names, that service's
// schema and migrations, on that service's database (DATABASE_URL).
export default prismaConfig(process.env.QUIRE_MIGRATE_SERVICE!, process.env.QUIRE_PRISMA_SCHEMA) satisfies PrismaConfig;
