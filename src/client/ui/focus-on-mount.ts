/**
 * A ref that moves the focus to its element as it appears: for a control that replaces the one that
 * had the focus (a dialog's next step, a form opened by its button). The `autofocus` attribute alone
 * is honoured by browsers only as a page loads or a dialog opens, not for an element added later.
 */
export const focusOnMount = (element: HTMLElement | null): void => {
  element?.focus();
};
