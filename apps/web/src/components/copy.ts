import { useState } from 'react';

/** Copies text to the clipboard; `copied` is the key of what was copied last (none after a failure). */
export function useCopy() {
  const [copied, setCopied] = useState<string>();
  const copy = (key: string, text: string) =>
    navigator.clipboard.writeText(text).then(
      () => setCopied(key),
      () => setCopied(undefined),
    );
  return { copied, copy };
}
