import { useState } from 'react';
import type { Address, AddressInput } from '#shared/addresses.js';
import { AddressForm } from '#client/addresses/address-form.js';
import { AddressText } from '#client/addresses/address-text.js';
import { useAddresses, useCreateAddress, useDeleteAddress, useSetDefaultAddress, useUpdateAddress } from '#client/addresses/addresses-api.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { ConfirmDialog } from '#client/ui/confirm-dialog.js';
import { useModal } from '#client/ui/modal/modal-context.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';

type Editing = { mode: 'new' } | { mode: 'edit'; address: Address } | null;

export function AddressesTab() {
  const { t } = useTranslation();
  const addresses = useAddresses();
  const createAddress = useCreateAddress();
  const updateAddress = useUpdateAddress();
  const deleteAddress = useDeleteAddress();
  const setDefault = useSetDefaultAddress();
  const showModal = useModal();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Address | null>(null);

  if (addresses.isPending) {
    return <LoadingMessage>{t('profileView.addressesLoading')}</LoadingMessage>;
  }
  if (addresses.isError) {
    return <LoadErrorMessage message={t('checkout.addressLoadError')} onRetry={addresses.refetch} />;
  }

  const save = (input: AddressInput) => {
    const done = { onSuccess: () => setEditing(null) };
    if (editing?.mode === 'edit') updateAddress.mutate({ id: editing.address.id, input }, done);
    else createAddress.mutate(input, done);
  };

  const confirmDelete = (address: Address) => {
    setDeleting(null);
    deleteAddress.mutate(address.id, {
      onSuccess: () => showModal({ type: 'success', message: t('profileView.deleted') }),
      onError: () => showModal({ type: 'error', message: t('profileView.deleteError') }),
    });
  };

  const makeDefault = (address: Address) =>
    setDefault.mutate(address.id, { onError: () => showModal({ type: 'error', message: t('profileView.updateError') }) });

  if (editing) {
    const saveFailed = editing.mode === 'edit' ? updateAddress.isError && t('profileView.updateError') : createAddress.isError && t('checkout.addressSaveError');
    return (
      <div className="panel">
        <h2 className="panel__title">{t(editing.mode === 'edit' ? 'addressForm.editTitle' : 'addressForm.title')}</h2>
        <AddressForm
          initial={editing.mode === 'edit' ? editing.address : undefined}
          saving={createAddress.isPending || updateAddress.isPending}
          saveError={saveFailed || null}
          saveFailure={editing.mode === 'edit' ? updateAddress.error : createAddress.error}
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      </div>
    );
  }

  return (
    <>
      {addresses.data.length === 0 ? (
        <p className="state-message">{t('profileView.noAddresses')}</p>
      ) : (
        <ul className="address-list">
          {addresses.data.map((address) => (
            <li key={address.id} className="address-card">
              <AddressText address={address} />
              {address.isDefault && <span className="tag">{t('checkout.defaultBadge')}</span>}
              <div className="address-card__actions">
                <button type="button" className="button button--small" onClick={() => setEditing({ mode: 'edit', address })}>
                  {t('profileView.edit')}
                </button>
                {!address.isDefault && (
                  <button type="button" className="button button--small" onClick={() => makeDefault(address)} disabled={setDefault.isPending}>
                    {t('profileView.setDefault')}
                  </button>
                )}
                <button type="button" className="button button--small button--ghost" onClick={() => setDeleting(address)}>
                  {t('profileView.delete')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="button button--primary"
        onClick={() => {
          createAddress.reset();
          setEditing({ mode: 'new' });
        }}
      >
        {t('profileView.addAddress')}
      </button>
      {deleting && (
        <ConfirmDialog
          title={t('profileView.confirmDeleteTitle')}
          message={t('profileView.confirmDelete', { name: deleting.fullName, city: deleting.city })}
          onConfirm={() => confirmDelete(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </>
  );
}
