import { useEffect } from 'react';

const TOAST_MS = 4000;

/** A short message at the bottom of the screen that goes away by itself. */
export function Toast({ message, kind = 'success', onDone }: { message: string; kind?: 'success' | 'error'; onDone(): void }) {
  useEffect(() => {
    const timer = setTimeout(onDone, TOAST_MS);
    return () => clearTimeout(timer);
  }, [message, onDone]);
  return (
    <div className={`toast toast--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {message}
    </div>
  );
}
