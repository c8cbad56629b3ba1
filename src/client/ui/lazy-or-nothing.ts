import { lazy, type ComponentType } from 'react';

const Nothing = () => null;

/**
 * A part loaded on demand that adds to a page rather than makes it (search suggestions, a form on a
 * sold-out product): when its code cannot be downloaded (offline, or a new version replaced the
 * files), it shows nothing and the page goes on without it.
 */
export function lazyOrNothing<Props extends object>(load: () => Promise<{ default: ComponentType<Props> }>) {
  return lazy(() => load().catch(() => ({ default: Nothing as ComponentType<Props> })));
}
