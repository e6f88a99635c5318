import { PrismaPg } from '@prisma/adapter-pg';

/**
 * Prisma 6.19 with the pg driver adapter: no native engine, works offline (TOOLCHAIN "Prisma").
 * Each service passes its own generated client class.
 */
export function createPrismaClient<C>(
  PrismaClient: new (options: { adapter: PrismaPg }) => C,
  connectionString: string,
  poolSize = 10,
): C {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: poolSize }) });
}
