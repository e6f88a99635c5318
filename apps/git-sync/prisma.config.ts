import type { PrismaConfig } from 'prisma';
import { prismaConfig } from '@quire/service-kit/prisma-config';

export default prismaConfig('git-sync') satisfies PrismaConfig;
