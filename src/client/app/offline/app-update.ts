import { useSyncExternalStore } from 'react';

/**
 * Whether a new version of the shop is waiting. `available`: its worker is installed beside the one
 * serving this page, which keeps this page's version whole until the visitor chooses to reload.
 * `switching`: the visitor chose to reload, and the page reloads once the new version's worker has taken
 * over, which can take a moment. `required`: another tab switched to the new version, whose worker no
 * longer keeps this page's code.
 */
export type AppUpdate = { kind: 'none' } | { kind: 'available'; reload(): void; dismiss(): void } | { kind: 'switching' } | { kind: 'required' };

let current: AppUpdate = { kind: 'none' };
const listeners = new Set<() => void>();

export function setAppUpdate(update: AppUpdate): void {
  current = update;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const useAppUpdate = (): AppUpdate => useSyncExternalStore(subscribe, () => current);
