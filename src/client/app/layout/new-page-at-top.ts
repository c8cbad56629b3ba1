import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

/**
 * A new page starts at its top, as a page the browser loads does: the app changes the address
 * without loading, so the window would keep the scroll of the page before (a product opened from far
 * down the catalogue, a legal page from the footer). Back and Forward are left to the browser, which
 * brings the visitor back where she was. Only the path counts: a filter, a search or the language
 * (the query) keeps the page where it is.
 */
export function useNewPageAtTop(): void {
  const [pathname] = useLocation();
  const shown = useRef(pathname);
  /** Where the last Back or Forward went, until the path changes. */
  const traversedTo = useRef<string | undefined>(undefined);
  useEffect(() => {
    const onTraverse = () => {
      traversedTo.current = window.location.pathname;
    };
    window.addEventListener('popstate', onTraverse);
    return () => window.removeEventListener('popstate', onTraverse);
  }, []);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const traversed = traversedTo.current === window.location.pathname;
    traversedTo.current = undefined;
    if (!traversed) window.scrollTo(0, 0);
  }, [pathname]);
}
