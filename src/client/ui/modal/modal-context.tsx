import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { ModalDialog } from './modal-dialog.js';
import type { ModalMessage } from './modal-message.js';

export type { ModalMessage } from './modal-message.js';

const ModalContext = createContext<((message: ModalMessage) => void) | null>(null);

/** One modal at a time for the whole app; a new message replaces the one showing. */
export function ModalProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ModalMessage | null>(null);
  const show = useCallback((message: ModalMessage) => setCurrent(message), []);
  const close = useCallback(() => setCurrent(null), []);
  const value = useMemo(() => show, [show]);
  return (
    <ModalContext.Provider value={value}>
      {children}
      {current && <ModalDialog {...current} onClose={close} />}
    </ModalContext.Provider>
  );
}

export function useModal(): (message: ModalMessage) => void {
  const show = useContext(ModalContext);
  if (!show) throw new Error('useModal needs a ModalProvider');
  return show;
}
