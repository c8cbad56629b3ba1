import { useCallback, useEffect, useState } from 'react';
import { validateNailSizes } from '#shared/nail-sizes.js';
import { refusedField } from '#client/api/error-text.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { completeSizes, EMPTY_SIZES, NailSizeFields, type SizesDraft } from '#client/sizes/nail-size-fields.js';
import { useSavedNailSizes, useSaveNailSizes, useSizeChart } from '#client/sizes/sizes-api.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { Toast } from '#client/ui/toast.js';

/**
 * "My nail sizes": the buyer's ten sizes, kept with her account, which every sized product's picker
 * fills in. Orders keep their own copy, so a change here changes none of them.
 */
export function NailSizesSection({ email }: { email: string }) {
  const { t } = useTranslation();
  const chart = useSizeChart();
  const saved = useSavedNailSizes(email);
  const save = useSaveNailSizes(email);
  const [draft, setDraft] = useState<SizesDraft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  const hideToast = useCallback(() => setToast(null), []);

  // Until the buyer changes them, the fields show what is saved.
  const shown = draft ?? saved.data ?? EMPTY_SIZES;
  useEffect(() => setDraft(null), [saved.data]);

  const submit = (sizes: SizesDraft | null) => {
    if (sizes) {
      const complete = completeSizes(sizes);
      const problem = complete ? validateNailSizes(complete, chart) : 'choices.errors.sizesIncomplete';
      if (problem) {
        setError(t(problem));
        return;
      }
    }
    setError(null);
    save.mutate(sizes && completeSizes(sizes), {
      onSuccess: () => setToast(t(sizes ? 'sizes.saved' : 'sizes.cleared')),
      onError: (failure) => {
        const refused = refusedField(t, failure);
        setError(refused ? t(refused.messageKey) : t('sizes.saveError'));
      },
    });
  };

  return (
    <section className="panel nail-sizes" aria-labelledby="nail-sizes-title">
      <h2 id="nail-sizes-title" className="panel__title">
        {t('sizes.mine')}
      </h2>
      <p className="muted">{t('sizes.mineIntro')}</p>
      {saved.isPending ? (
        <LoadingMessage>{t('sizes.loading')}</LoadingMessage>
      ) : saved.isError ? (
        <LoadErrorMessage message={t('sizes.loadError')} onRetry={saved.refetch} />
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit(shown);
          }}
        >
          {!saved.data && <p>{t('sizes.none')}</p>}
          <NailSizeFields
            value={shown}
            onChange={(next) => {
              setDraft(next);
              setError(null);
            }}
            chart={chart}
            error={error}
            legend={t('sizes.title')}
          />
          <div className="form-actions">
            <button type="submit" className="button button--primary" disabled={save.isPending}>
              {t('sizes.save')}
            </button>
            {saved.data && (
              <button type="button" className="button button--ghost" disabled={save.isPending} onClick={() => submit(null)}>
                {t('sizes.clear')}
              </button>
            )}
          </div>
        </form>
      )}
      {toast && <Toast message={toast} onDone={hideToast} />}
    </section>
  );
}
