// Saving as one types: the state is read lazily (serializing a long page on every keystroke would
// slow typing), kept in the browser after a short pause and before the page unloads (a reload
// loses nothing), and sent as one batch after a longer pause; one request at a time, the newest
// state wins, failures retry.

export type SaveState = 'saved' | 'unsaved' | 'saving' | 'error';

export interface Draft {
  title: string;
  /** The page's emoji and icon name ('' for none); absent from drafts kept before they were editable. */
  emoji?: string;
  icon?: string;
  document: unknown;
  /** When it was typed (ms): a draft older than the server's copy is not restored. */
  at: number;
}

export interface AutosaveOptions {
  key: string;
  save(draft: Draft): Promise<void>;
  /** Pause before a batch is sent. */
  delayMs?: number;
  /** Pause before the state is kept in the browser. */
  keepMs?: number;
  retryMs?: number;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

export class Autosaver {
  private pending: Draft | undefined;
  private read: (() => Omit<Draft, 'at'>) | undefined;
  private keepTimer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private listeners = new Set<(s: SaveState, error?: string) => void>();
  state: SaveState = 'saved';
  error: string | undefined;

  constructor(private readonly o: AutosaveOptions) {}

  /** The draft a reload left unsaved, if any. */
  restore(): Draft | undefined {
    try {
      const raw = this.storage?.getItem(this.o.key);
      return raw ? (JSON.parse(raw) as Draft) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Something changed; `read` gives the state when it is needed. */
  change(read: () => Omit<Draft, 'at'>) {
    this.read = read;
    if (this.state !== 'unsaved') this.set('unsaved');
    clearTimeout(this.keepTimer);
    this.keepTimer = setTimeout(() => this.keep(), this.o.keepMs ?? 250);
    this.schedule(this.o.delayMs ?? 800);
  }

  /** Reads the latest state and keeps it in the browser (call it before the page unloads too). */
  keep() {
    clearTimeout(this.keepTimer);
    if (!this.read) return;
    this.pending = { ...this.read(), at: Date.now() };
    this.read = undefined;
    try {
      this.storage?.setItem(this.o.key, JSON.stringify(this.pending));
    } catch {
      // Storage full or refused: the save still runs.
    }
  }

  /** Send now what is waiting (leaving the page, switching pages). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    if (this.inFlight) return;
    this.keep();
    if (!this.pending) return;
    const draft = this.pending;
    this.pending = undefined;
    this.inFlight = true;
    this.set('saving');
    try {
      await this.o.save(draft);
      this.inFlight = false;
      if (this.pending || this.read) return this.flush();
      this.storage?.removeItem(this.o.key);
      this.set('saved');
    } catch (e) {
      this.inFlight = false;
      this.pending ??= draft;
      this.error = (e as Error).message;
      this.set('error');
      this.schedule(this.o.retryMs ?? 3000);
    }
  }

  subscribe(listener: (s: SaveState, error?: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose() {
    clearTimeout(this.timer);
    clearTimeout(this.keepTimer);
    this.listeners.clear();
  }

  private get storage() {
    return this.o.storage ?? (typeof localStorage === 'undefined' ? undefined : localStorage);
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), ms);
  }

  private set(state: SaveState) {
    this.state = state;
    if (state !== 'error') this.error = undefined;
    for (const l of this.listeners) l(state, this.error);
  }
}
