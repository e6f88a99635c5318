// Page views and searches reach insights without slowing a page: events wait in a bounded queue
// and are sent in batches (per site) in the background; when the queue is full new events are
// dropped and counted, never awaited.

export interface QueuedEvent {
  organizationId: string;
  siteId: string;
  clientIp: string;
  event: Record<string, unknown>;
}

export type Sender = (batch: { organizationId: string; siteId: string; clientIp: string; events: Record<string, unknown>[] }) => Promise<unknown>;

export const BATCH = 500;

export function insightsQueue(send: Sender, opts: { limit: number; intervalMs: number; onError?: (err: unknown) => void }) {
  let queue: QueuedEvent[] = [];
  let dropped = 0;
  let sending: Promise<void> | undefined;

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const taken = queue;
      queue = [];
      const groups = new Map<string, QueuedEvent[]>();
      for (const e of taken) {
        const key = `${e.organizationId}\u0000${e.siteId}\u0000${e.clientIp}`;
        const group = groups.get(key);
        if (group) group.push(e);
        else groups.set(key, [e]);
      }
      for (const group of groups.values()) {
        for (let i = 0; i < group.length; i += BATCH) {
          const part = group.slice(i, i + BATCH);
          const { organizationId, siteId, clientIp } = part[0]!;
          await send({ organizationId, siteId, clientIp, events: part.map((e) => e.event) }).catch((err: unknown) => opts.onError?.(err));
        }
      }
    }
  }

  const flush = (): Promise<void> => (sending ??= drain().finally(() => (sending = undefined)));
  const timer = setInterval(() => void flush(), opts.intervalMs);
  timer.unref();

  return {
    /** Queues one event; false when the queue is full and it was dropped. */
    push(e: QueuedEvent): boolean {
      if (queue.length >= opts.limit) {
        dropped++;
        return false;
      }
      queue.push(e);
      return true;
    },
    flush,
    get dropped() {
      return dropped;
    },
    get size() {
      return queue.length;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
