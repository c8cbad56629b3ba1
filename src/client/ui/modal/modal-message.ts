/** A message the shop shows in a modal dialog (spec section 3): the dialog and its provider both speak it. */
type ModalType = 'info' | 'success' | 'error' | 'warning' | 'default';

export interface ModalMessage {
  type?: ModalType;
  message: string;
  /** Defaults to the type's title. */
  title?: string;
}
