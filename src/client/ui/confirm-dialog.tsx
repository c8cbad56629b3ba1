import { useId } from 'react';
import { useTranslation } from '#client/i18n/i18n.js';
import { Dialog } from './dialog.js';

interface ConfirmDialogProps {
  title: string;
  message: string;
  /** The buttons' words when "Delete" and "Cancel" do not say what they do. */
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm(): void;
  onCancel(): void;
}

/** Asks before something that cannot be undone or is likely a slip; Cancel has the focus. */
export function ConfirmDialog({ title, message, confirmLabel, cancelLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const messageId = useId();
  return (
    <Dialog titleId={titleId} describedBy={messageId} className="modal modal--warning" onClose={onCancel}>
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <p id={messageId} className="modal__message">
        {message}
      </p>
      <div className="dialog__actions">
        <button type="button" className="button button--danger" onClick={onConfirm}>
          {confirmLabel ?? t('confirm.confirm')}
        </button>
        <button type="button" className="button" onClick={onCancel} data-autofocus>
          {cancelLabel ?? t('confirm.cancel')}
        </button>
      </div>
    </Dialog>
  );
}
