import { useEffect, useRef, type ReactNode } from 'react';

interface DialogProps {
  titleId: string;
  describedBy?: string;
  className?: string;
  onClose(): void;
  children: ReactNode;
}

/**
 * A native modal dialog: focus stays inside, Escape and a click on the backdrop close it,
 * and the page behind does not scroll while it is open.
 */
export function Dialog({ titleId, describedBy, className = '', onClose, children }: DialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    dialog.showModal();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previousOverflow;
      dialog.close();
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
