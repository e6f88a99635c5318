import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// After every component test: the rendered tree unmounted, the stubbed fetch put back, and what
// the app kept in the browser forgotten (files that run in node have no DOM to clean).
afterEach(() => {
  vi.unstubAllGlobals();
  if (typeof document === 'undefined') return;
  cleanup();
  localStorage.clear();
});
