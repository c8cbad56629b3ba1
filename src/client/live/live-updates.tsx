import { useEffect } from 'react';
import { partialMatchKey, useQueryClient } from '@tanstack/react-query';
import { CATALOGUE_TOPIC, STOCK_TOPIC, type CatalogueChangeEvent, type LiveReadyEvent, type LiveTopic, type StockCounts, type StockEvent } from '#shared/live.js';
import { queryKeys } from '#client/api/query-keys.js';
import type { ShownCartItem } from '#client/cart/cart-storage.js';
import { useSession } from '#client/session/session.js';
import { cartWithCounts, catalogueWithCounts, type CatalogueView } from './stock-counts.js';

const USER_TOPICS: readonly LiveTopic[] = ['cart', 'orders'];
/** What shows products: the catalogue, the admin's list of it, the cart, whose lines show current names and prices, and the products' reviews. */
const CATALOGUE_VIEWS = [queryKeys.catalogue(), queryKeys.adminProducts(), queryKeys.carts(), queryKeys.productReviewPages()] as const;
/**
 * A stream the server refused (too many open, or an answer that was no stream) is not reopened by
 * the browser; the page asks again after this long, spread out so that refused pages do not return together.
 */
const REOPEN_AFTER_MS = 30_000;

const parse = <T,>(event: Event): T | null => {
  try {
    return JSON.parse((event as MessageEvent<string>).data) as T;
  } catch {
    return null;
  }
};

/**
 * Keeps every open page true to the shop: the server names what changed (the catalogue for
 * everyone, the cart and orders for the signed-in customer, on any device, through any server
 * process) and the matching queries are fetched again. The browser reopens a dropped stream by
 * itself; everything is fetched again then, since changes may have been missed.
 */
export function LiveUpdates() {
  const { user, recheck, signingOut } = useSession();
  const queryClient = useQueryClient();
  const email = user?.email ?? null;

  useEffect(() => {
    const signedIn = email !== null;
    // While signing out, the cart and the customer's own views wait: the session is ending, and they are forgotten with it.
    const personal: readonly (readonly unknown[])[] = [queryKeys.carts(), ...USER_TOPICS.map((topic) => queryKeys.ofTopic(topic))];
    const refetch = (queryKey: readonly unknown[]) => {
      if (signingOut() && personal.includes(queryKey)) return;
      void queryClient.invalidateQueries({ queryKey });
    };
    const refetchCatalogueViews = () => CATALOGUE_VIEWS.forEach(refetch);
    // Every count heard on this page, newest last: a catalogue that arrives later, read before some of
    // them, is brought up to date with them (one read after them already agrees).
    // An admin's change of the catalogue is fetched whole, counts included, so what was heard before it is forgotten.
    let heardCounts: StockCounts = {};
    const updateCatalogueCounts = () => {
      // Only views whose counts differ are set: setting one announces it, and this runs on such announcements.
      for (const [queryKey, view] of queryClient.getQueriesData<CatalogueView | null>({ queryKey: queryKeys.catalogue() })) {
        const updated = catalogueWithCounts(view, heardCounts);
        if (updated !== view) queryClient.setQueryData(queryKey, updated);
      }
    };
    const applyCounts = (counts: StockCounts) => {
      Object.assign(heardCounts, counts);
      updateCatalogueCounts();
      queryClient.setQueriesData<ShownCartItem[]>({ queryKey: queryKeys.carts() }, (items) => cartWithCounts(items, counts));
      // The admin's list is filtered by counts, so it is asked again rather than patched.
      refetch(queryKeys.adminProducts());
    };

    // The newest catalogue version the server has named; a catalogue read before it is out of date.
    let announced = 0;
    let refetchedFor = -1;
    const checkCatalogue = () => {
      const views = queryClient.getQueriesData<CatalogueView | null>({ queryKey: queryKeys.catalogue() });
      // A product page of no product holds null, which no news changes.
      const outdated = views.some(([, view]) => view && (view.version ?? 0) < announced);
      // Once per version, so that a server whose version went back (a restored database) cannot start a loop.
      if (!outdated || refetchedFor === announced) return;
      refetchedFor = announced;
      refetchCatalogueViews();
    };
    // A catalogue still on its way when the stream became ready is checked when it arrives.
    const stopWatching = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success' && partialMatchKey(event.query.queryKey, queryKeys.catalogue())) {
        checkCatalogue();
        updateCatalogueCounts();
      }
    });

    let events: EventSource | undefined;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    // Whether a stream of this page was ready before: a later one, reopened by the browser or by us, may have missed news.
    let connectedBefore = false;
    const open = () => {
      const stream = new EventSource('/api/events');
      events = stream;
      stream.addEventListener('ready', (event) => {
        const ready = parse<LiveReadyEvent>(event);
        if (ready) {
          announced = ready.catalogueVersion;
          // Counts sold before this stream listened; older servers send none.
          if (ready.stock) applyCounts(ready.stock);
          // Signed in or out elsewhere (another tab, an ended session): the page asks who it is.
          if (ready.signedIn !== signedIn) void recheck();
        }
        if (connectedBefore) {
          refetchCatalogueViews();
          USER_TOPICS.forEach((topic) => refetch(queryKeys.ofTopic(topic)));
        } else {
          checkCatalogue();
          // The cart carries no catalogue version: one read before this stream listened may hold an old price.
          if (signedIn) refetch(queryKeys.carts());
        }
        connectedBefore = true;
      });
      stream.addEventListener(CATALOGUE_TOPIC, (event) => {
        announced = Math.max(announced, parse<CatalogueChangeEvent>(event)?.catalogueVersion ?? announced);
        heardCounts = {};
        refetchCatalogueViews();
      });
      stream.addEventListener(STOCK_TOPIC, (event) => {
        const counts = parse<StockEvent>(event)?.stock;
        if (counts) applyCounts(counts);
      });
      for (const topic of USER_TOPICS) stream.addEventListener(topic, () => refetch(queryKeys.ofTopic(topic)));
      stream.addEventListener('resync', () => {
        heardCounts = {};
        refetchCatalogueViews();
        USER_TOPICS.forEach((topic) => refetch(queryKeys.ofTopic(topic)));
      });
      stream.addEventListener('error', () => {
        if (stream.readyState !== EventSource.CLOSED) return;
        reopenTimer = setTimeout(open, REOPEN_AFTER_MS * (1 + Math.random()));
      });
    };
    open();

    return () => {
      clearTimeout(reopenTimer);
      events?.close();
      stopWatching();
    };
  }, [email, queryClient, recheck, signingOut]);

  return null;
}
