import { useId } from 'react';
import { useTranslation } from '#client/i18n/i18n.js';
import { Dialog } from '../dialog.js';
import type { ModalMessage } from './modal-message.js';

export function ModalDialog({ type = 'default', title, message, onClose }: ModalMessage & { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const messageId = useId();
  return (
    <Dialog titleId={titleId} describedBy={messageId} className={`modal modal--${type}`} onClose={onClose}>
      <h2 id={titleId} className="dialog__title">
        {title ?? t(`modal.titles.${type}`)}
      </h2>
      <p id={messageId} className="modal__message">
        {message}
      </p>
      <button type="button" className="button button--primary dialog__wide-button" onClick={onClose} data-autofocus>
        {t('modal.ok')}
      </button>
    </Dialog>
  );
}
