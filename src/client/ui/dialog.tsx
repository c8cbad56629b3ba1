import { useLayoutEffect, useRef, type ReactNode } from 'react';

interface DialogProps {
  titleId: string;
  describedBy?: string;
  className?: string;
  onClose(): void;
  children: ReactNode;
}

function canTakeFocus(element: Element | null): element is HTMLElement {
  return (
    element instanceof HTMLElement &&
    element !== document.body &&
    element.isConnected &&
    !element.matches(':disabled') &&
    element.getClientRects().length > 0
  );
}

/**
 * Gives focus back to the control that opened a dialog, so that a keyboard or screen-reader user
 * goes on from where they were. When that control is gone (the line it removed, the button of a
 * step that is over), the main content takes focus rather than <body>, which would restart them at
 * the top of the page.
 */
function returnFocus(opener: Element | null) {
  if (canTakeFocus(opener)) {
    opener.focus();
    if (document.activeElement === opener) {
      focusMainIfRemoved(opener);
      return;
    }
  }
  focusMain();
}

function focusMain() {
  const main = document.querySelector('main');
  if (!main) return;
  if (!main.hasAttribute('tabindex')) main.tabIndex = -1;
  main.focus();
}

/**
 * The opener can still be removed after it took the focus back: a line's deletion whose answer
 * rendered the list again just after the dialog that told of it closed (a key press is handled
 * before a waiting render). The main content then takes the focus from <body>, until the focus
 * moves anywhere else.
 */
function focusMainIfRemoved(opener: HTMLElement) {
  const stop = () => {
    removal.disconnect();
    document.removeEventListener('focusin', stop);
  };
  const removal = new MutationObserver(() => {
    if (opener.isConnected) return;
    stop();
    if (document.activeElement === null || document.activeElement === document.body) focusMain();
  });
  removal.observe(document.body, { childList: true, subtree: true });
  document.addEventListener('focusin', stop);
}

/**
 * A native modal dialog: focus stays inside and returns to the opener on close, Escape and a click
 * on the backdrop close it, and the page behind does not scroll while it is open.
 */
export function Dialog({ titleId, describedBy, className = '', onClose, children }: DialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);

  // A layout effect: the opener is read before anything else can move focus, and focus is given
  // back while the dialog is still in the document.
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const opener = document.activeElement;
    dialog.showModal();
    // The control marked data-autofocus starts with the focus (else the browser picks the first one):
    // React's autoFocus runs before showModal, while the dialog is still hidden, so it cannot work here.
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previousOverflow;
      dialog.close();
      returnFocus(opener);
    };
  }, []);

  return (
    <dialog
      ref={dialogRef}
      className={`dialog ${className}`}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // The dialog element itself is the backdrop; its content sits in an inner box.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="dialog__box">{children}</div>
    </dialog>
  );
}
