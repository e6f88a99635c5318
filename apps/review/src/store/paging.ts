import type { Page } from '@quire/service-kit';

/** Prisma's arguments for the rows after `page.after`, the rows keyed by `id`. */
export const cursor = (page: Page): { cursor?: { id: string }; skip?: number } => (page.after ? { cursor: { id: page.after }, skip: 1 } : {});
