import { cleanup, getQueriesForElement, screen } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';

// Run before every test file. The component tests' files share one process and its modules
// (isolate: false), but each file gets a new jsdom window: it is readied here, and what a
// module kept of an earlier file's window is pointed at it.
if (typeof document !== 'undefined') {
  // Testing Library's `screen` was bound to the body of the window it was first imported in.
  Object.assign(screen, getQueriesForElement(document.body));
  // jsdom has <dialog> without its modal methods.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
}

// After every component test: the rendered tree unmounted, the stubbed fetch put back, and what
// the app kept in the browser forgotten (files that run in node have no DOM to clean).
afterEach(() => {
  vi.unstubAllGlobals();
  if (typeof document === 'undefined') return;
  cleanup();
  localStorage.clear();
});

// A module a test started loading (the app's lazy views) comes over this file's channel to
// Vitest, which closes when the file ends: the next file would wait on it until a timeout.
afterAll(() => vi.dynamicImportSettled());
