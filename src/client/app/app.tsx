import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { CartProvider } from '#client/cart/cart-provider.js';
import { ConnectivityProvider } from '#client/connectivity/connectivity.js';
import { FavouritesProvider } from '#client/favourites/favourites.js';
import { I18nProvider } from '#client/i18n/i18n.js';
import type { Language } from '#client/i18n/texts.js';
import { LiveUpdates } from '#client/live/live-updates.js';
import { SessionProvider, sessionQuery } from '#client/session/session.js';
import { ModalProvider } from '#client/ui/modal/modal-context.js';
import { AuthDialogs } from './auth-dialogs.js';
import { AppRoutes } from './router.js';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 2, refetchOnWindowFocus: false } },
});
// Asked at once, in parallel with the texts, rather than after them.
void queryClient.prefetchQuery(sessionQuery);

export function App({ language }: { language: Language }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ConnectivityProvider>
        <I18nProvider initialLanguage={language}>
          <SessionProvider>
            <ModalProvider>
              <CartProvider>
                <FavouritesProvider>
                  <AppRoutes />
                  <AuthDialogs />
                  <LiveUpdates />
                </FavouritesProvider>
              </CartProvider>
            </ModalProvider>
          </SessionProvider>
        </I18nProvider>
      </ConnectivityProvider>
    </QueryClientProvider>
  );
}
