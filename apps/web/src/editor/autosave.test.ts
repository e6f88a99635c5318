import { afterEach, describe, expect, it, vi } from 'vitest';
import { Autosaver, type Draft } from './autosave.ts';

afterEach(() => vi.useRealTimers());

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
}

describe('Autosaver', () => {
  it('keeps each change in storage at once and sends one batch after a pause, newest state only', async () => {
    vi.useFakeTimers();
    const storage = memoryStorage();
    const sent: Draft[] = [];
    const a = new Autosaver({ key: 'k', storage, delayMs: 100, keepMs: 10, save: async (d) => void sent.push(d) });
    const states: string[] = [];
    a.subscribe((s) => states.push(s));
    a.change(() => ({ title: 'T', document: 1 }));
    a.change(() => ({ title: 'T', document: 2 }));
    await vi.advanceTimersByTimeAsync(20);
    expect(JSON.parse(storage.m.get('k')!).document).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.map((d) => d.document)).toEqual([2]);
    expect(storage.m.has('k')).toBe(false);
    expect(states).toEqual(['unsaved', 'saving', 'saved']);
  });

  it('sends what changed during a save right after it, one request at a time', async () => {
    vi.useFakeTimers();
    let release!: () => void;
    const sent: unknown[] = [];
    let inFlight = 0;
    const a = new Autosaver({
      key: 'k',
      storage: memoryStorage(),
      delayMs: 10,
      save: (d) => {
        inFlight++;
        expect(inFlight).toBe(1);
        sent.push(d.document);
        return new Promise<void>((r) => (release = () => (inFlight--, r())));
      },
    });
    a.change(() => ({ title: 'T', document: 'a' }));
    await vi.advanceTimersByTimeAsync(10);
    a.change(() => ({ title: 'T', document: 'b' }));
    await vi.advanceTimersByTimeAsync(10);
    expect(sent).toEqual(['a']);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['a', 'b']);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.state).toBe('saved');
  });

  it('keeps the draft and retries after a failure; a reload finds it', async () => {
    vi.useFakeTimers();
    const storage = memoryStorage();
    let fail = true;
    const sent: unknown[] = [];
    const a = new Autosaver({
      key: 'k',
      storage,
      delayMs: 10,
      retryMs: 50,
      save: async (d) => {
        if (fail) throw new Error('503 upstream unavailable');
        sent.push(d.document);
      },
    });
    a.change(() => ({ title: 'T', document: 'x' }));
    await vi.advanceTimersByTimeAsync(10);
    expect(a.state).toBe('error');
    expect(a.error).toBe('503 upstream unavailable');
    expect(new Autosaver({ key: 'k', storage, save: async () => undefined }).restore()?.document).toBe('x');
    fail = false;
    await vi.advanceTimersByTimeAsync(50);
    expect(sent).toEqual(['x']);
    expect(a.state).toBe('saved');
    expect(storage.m.has('k')).toBe(false);
  });
});
