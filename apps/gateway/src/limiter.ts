import { createHash } from 'node:crypto';
import { StorageType, type KV, type NatsConnection } from 'nats';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';

/** What one `hit` decided: `allowed` while the window's count (this hit included) is within the limit. */
export interface LimitResult {
  allowed: boolean;
  limit: number;
  count: number;
  remaining: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetMs: number;
}

interface Waiter {
  resolve(count: number): void;
  reject(err: unknown): void;
}

/** Longest window any caller may ask for: the counters' bucket keeps entries this long. */
export const MAX_WINDOW_MS = 60 * 60 * 1000;

// CAS retries of one hit when other replicas update the same counter at once.
const MAX_ATTEMPTS = 16;
// After NATS fails to answer, count in memory this long before asking it again, so an outage
// costs each request nothing rather than a timeout.
const DEGRADED_MS = 5_000;
/** How old a replica's view of a shared count may be for `hitCached` to answer from it. */
export const VIEW_MS = 100;

/** A replica's view of one shared counter: its count when last read, and hits since not yet added to it. */
interface View {
  known: number;
  unsent: number;
  readAt: number;
  expires: number;
  flushing: boolean;
}

/**
 * Fixed-window counters shared by every gateway replica through one NATS KV bucket (no new
 * store). NATS 2.9 has no per-key TTL, so each counter key names its window
 * (`<hash of key>.<window length>.<window index>`) and the bucket's `max_age` (MAX_WINDOW_MS)
 * drops old windows; increments are compare-and-set on the entry's revision, so concurrent
 * replicas never lose a count. Keys are hashed: tokens and addresses never reach NATS.
 *
 * When NATS does not answer, counts fall back to this process's memory (the limit then holds
 * per replica) rather than letting every request through or refusing them all.
 *
 * Used for the API's request limits (plugins/rate-limit.ts) and for throttling sign-in per
 * account and per address: `limiter.hit('signin:account:' + email, 10, 15 * 60_000)`.
 */
export class Limiter {
  private readonly local = new Map<string, { count: number; expires: number }>();
  private readonly pending = new Map<string, Waiter[]>();
  private readonly views = new Map<string, View>();
  // The hashes of keys counted lately: a token's count is taken on every request.
  private readonly hashes = new LRUCache<string, string>({ max: 10_000 });
  // Additions of cached hits on their way to NATS: closing waits for them.
  private readonly sending = new Set<Promise<void>>();
  private closed = false;
  private degradedUntil = 0;

  private constructor(
    private readonly kv: KV | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Counters in the KV bucket `bucket` (created when missing, in memory: losing them on a NATS restart is harmless). */
  static async shared(nc: NatsConnection, bucket: string, log: FastifyBaseLogger): Promise<Limiter> {
    const kv = await nc.jetstream().views.kv(bucket, { history: 1, ttl: MAX_WINDOW_MS, storage: StorageType.Memory, timeout: 1_000 });
    return new Limiter(kv, log);
  }

  /** Counters of this process only (no NATS: tests of one instance, tools). */
  static local(log: FastifyBaseLogger): Limiter {
    return new Limiter(null, log);
  }

  /** Counts one event for `key` in the current window of `windowMs` and says whether it is within `limit`. */
  async hit(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    return this.count(key, limit, windowMs, 1);
  }

  /** The current window's count for `key` without adding to it (`allowed` while it is below `limit`). */
  async peek(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    return this.count(key, limit, windowMs, 0);
  }

  /**
   * Like `hit`, for counts taken on every request (the API's per-token limit): answers from this
   * replica's view of the shared count while the view is under VIEW_MS old, and adds its hits to
   * the shared counter in one compare-and-set every VIEW_MS / 2, which also reads the count anew,
   * so under steady use the view never gets old and a request costs no NATS round trip. A stale or
   * missing view is read (and this hit added) as `hit` does. The price: a count can pass its limit
   * by what other replicas admitted in the last VIEW_MS.
   */
  async hitCached(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    const { name, now, resetMs } = this.window(key, windowMs);
    const view = this.views.get(name);
    if (!this.kv || now < this.degradedUntil || !view || now - view.readAt >= VIEW_MS) {
      const { count } = await this.count(key, limit, windowMs, 1);
      // Hits of this replica still on their way to NATS count too.
      return result(count + (this.views.get(name)?.unsent ?? 0), limit, resetMs, 1);
    }
    view.unsent++;
    if (!view.flushing) {
      view.flushing = true;
      this.flushLater(this.kv, name, view);
    }
    return result(view.known + view.unsent, limit, resetMs, 1);
  }

  private window(key: string, windowMs: number) {
    if (!(windowMs > 0 && windowMs <= MAX_WINDOW_MS)) throw new RangeError(`windowMs must be in (0, ${MAX_WINDOW_MS}]`);
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const resetMs = (window + 1) * windowMs - now;
    let hash = this.hashes.get(key);
    if (hash === undefined) this.hashes.set(key, (hash = createHash('sha256').update(key).digest('base64url')));
    return { now, resetMs, name: `${hash}.${windowMs}.${window}` };
  }

  private async count(key: string, limit: number, windowMs: number, add: 0 | 1): Promise<LimitResult> {
    const { name, now, resetMs } = this.window(key, windowMs);
    let count: number;
    if (this.kv && now >= this.degradedUntil) {
      try {
        count = await this.shared(this.kv, name, add);
        this.see(name, count, now + resetMs);
      } catch (err) {
        this.log.warn({ err }, `rate limit counters unreachable in NATS; counting in this process for ${DEGRADED_MS} ms`);
        this.degradedUntil = Date.now() + DEGRADED_MS;
        count = this.memory(name, add, resetMs);
      }
    } else count = this.memory(name, add, resetMs);
    return result(count, limit, resetMs, add);
  }

  /** Records a count just read from the shared counter as this replica's view of it. */
  private see(name: string, count: number, expires: number): void {
    const now = Date.now();
    const view = this.views.get(name);
    if (view) {
      view.known = count;
      view.readAt = now;
      return;
    }
    if (this.views.size > 100_000) for (const [k, v] of this.views) if (v.expires <= now && !v.flushing) this.views.delete(k);
    this.views.set(name, { known: count, unsent: 0, readAt: now, expires, flushing: false });
  }

  /**
   * In VIEW_MS / 2, adds a view's unsent hits to the shared counter; hits that arrive meanwhile
   * wait for the next flush. Half the view's age: the flush's answer refreshes the view before it
   * is VIEW_MS old. Flushing every VIEW_MS, the view went stale for a compare-and-set's round trip
   * every cycle, and the requests of that moment waited for NATS (7% of org-read's requests, 8.7 ms
   * each on average, in the org-read benchmark).
   */
  private flushLater(kv: KV, name: string, view: View): void {
    setTimeout(() => {
      // Once closing, close() sends what is left.
      if (this.closed) return;
      const sent = this.send(kv, name, view);
      this.sending.add(sent);
      void sent.finally(() => this.sending.delete(sent));
    }, VIEW_MS / 2).unref();
  }

  private async send(kv: KV, name: string, view: View): Promise<void> {
    const n = view.unsent;
    try {
      const before = await this.add(kv, name, n);
      view.unsent -= n;
      view.known = before + n;
      view.readAt = Date.now();
    } catch (err) {
      // The hits stay unsent; the next request finds the view stale and asks NATS itself.
      this.log.warn({ err }, 'rate limit counts could not be added to NATS');
      view.readAt = 0;
    }
    view.flushing = view.unsent > 0;
    if (view.flushing && !this.closed) this.flushLater(kv, name, view);
  }

  /**
   * At shutdown, before NATS is drained: the hits still on their way are added to the shared
   * counters, so the other replicas count what this one admitted last.
   */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.sending);
    const kv = this.kv;
    if (kv) await Promise.all([...this.views].filter(([, view]) => view.unsent > 0).map(([name, view]) => this.send(kv, name, view)));
  }

  /** Removes the shared bucket and its counters (tests, each with a bucket of its own). */
  async drop(): Promise<void> {
    await this.kv?.destroy();
  }

  /**
   * The window's count after adding `add`. Concurrent hits of one key in this process share one
   * compare-and-set (adding all of them), so only other replicas can contend for a counter.
   */
  private shared(kv: KV, name: string, add: 0 | 1): Promise<number> {
    if (!add) return this.read(kv, name).then((e) => e.count);
    return new Promise((resolve, reject) => {
      const queue = this.pending.get(name);
      if (queue) return void queue.push({ resolve, reject });
      const fresh = [{ resolve, reject }];
      this.pending.set(name, fresh);
      void this.flush(kv, name, fresh);
    });
  }

  private async flush(kv: KV, name: string, queue: Waiter[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0);
      try {
        const before = await this.add(kv, name, batch.length);
        batch.forEach((w, i) => w.resolve(before + i + 1));
      } catch (err) {
        batch.forEach((w) => w.reject(err));
      }
    }
    this.pending.delete(name);
  }

  /** Adds `n` to the counter by compare-and-set on its revision; the count before. */
  private async add(kv: KV, name: string, n: number): Promise<number> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const { count, revision } = await this.read(kv, name);
      try {
        if (revision) await kv.update(name, String(count + n), revision);
        else await kv.create(name, String(n));
        return count;
      } catch (err) {
        // 10071, wrong last sequence: another replica wrote first; read again after a short, random pause.
        if ((err as { api_error?: { err_code?: number } }).api_error?.err_code !== 10071) throw err;
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(2 ** attempt, 20)));
      }
    }
    throw new Error(`rate limit counter ${name} stayed contended for ${MAX_ATTEMPTS} attempts`);
  }

  private async read(kv: KV, name: string): Promise<{ count: number; revision: number }> {
    const entry = await kv.get(name);
    if (!entry) return { count: 0, revision: 0 };
    // A deleted or purged key is written over at its revision, as an absent one would be created.
    return { count: entry.operation === 'PUT' ? Number(entry.string()) || 0 : 0, revision: entry.revision };
  }

  private memory(name: string, add: 0 | 1, resetMs: number): number {
    const now = Date.now();
    if (this.local.size > 100_000) for (const [k, v] of this.local) if (v.expires <= now) this.local.delete(k);
    const entry = this.local.get(name) ?? { count: 0, expires: now + resetMs };
    entry.count += add;
    if (add) this.local.set(name, entry);
    return entry.count;
  }
}

function result(count: number, limit: number, resetMs: number, add: 0 | 1): LimitResult {
  const allowed = add ? count <= limit : count < limit;
  return { allowed, limit, count, remaining: Math.max(0, limit - count), resetMs };
}
