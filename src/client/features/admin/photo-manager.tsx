import { useEffect, useId, useReducer, useRef, useState, type ChangeEvent } from 'react';
import { MAX_PRODUCT_PHOTOS, type LocalizedText, type ProductPhoto } from '#shared/catalog.js';
import { IMAGE_SIZE_HEADER_BYTES, imageSize } from '#shared/image-size.js';
import { MAX_PHOTO_ALT_LENGTH, MAX_PHOTO_PIXELS } from '#shared/photo-schemas.js';
import { useTranslation } from '#client/i18n/i18n.js';

/**
 * A photo as the form holds it: one the product has (`photo`), or a file chosen in this form that is
 * uploaded when the product is saved (`file`). The order of the list is the order the product gets.
 */
export interface PhotoItem {
  /** Stable while the item lives, for React and for moving the focus with it. */
  key: string;
  photo?: ProductPhoto;
  file?: File;
  altEn: string;
  altBg: string;
  /** Upload progress in percent while the file is being sent. */
  progress?: number;
  /** The file's upload failed; it stays in the list to be sent again or removed. */
  failed?: UploadFailure;
}

/** Why a file was not uploaded: the server refused the file itself (`refused`: it would again), or the upload did not get through. */
interface UploadFailure {
  reason: unknown;
  refused: boolean;
}

export const photoItemOf = (photo: ProductPhoto): PhotoItem => ({ key: photo.id, photo, altEn: photo.alt.en, altBg: photo.alt.bg });

let fileItems = 0;
const fileItemOf = (file: File): PhotoItem => ({ key: `file-${++fileItems}`, file, altEn: '', altBg: '' });

interface PhotoManagerProps {
  items: PhotoItem[];
  onChange(items: PhotoItem[]): void;
  /** The product's name as typed in the form: an empty alt text stands for it. */
  productName: LocalizedText;
  /** While the form is being saved, the list cannot change. */
  saving: boolean;
  /** Why a file's upload failed, in the admin's language. */
  failureText(reason: unknown): string;
}

type Action = 'earlier' | 'later' | 'cover' | 'remove';

/**
 * A preview address for each chosen file, made once its header is read and released when the file
 * leaves the list. A file whose header states more pixels than the shop takes gets none: to show even a
 * thumbnail the browser decodes the whole picture (a 16,000 × 16,000 PNG of 30 KB held the page for
 * seconds), and the server refuses it anyway, saying why.
 */
function useFilePreviews(items: PhotoItem[]): Map<File, string> {
  const [previews] = useState(() => new Map<File, string>());
  const [checked] = useState(() => new Set<File>());
  const [, previewMade] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    for (const { file } of items) {
      if (!file || checked.has(file)) continue;
      checked.add(file);
      file
        .slice(0, IMAGE_SIZE_HEADER_BYTES)
        .arrayBuffer()
        .then(
          (header) => {
            const size = imageSize(new Uint8Array(header));
            if (!checked.has(file) || (size && size.width * size.height > MAX_PHOTO_PIXELS)) return;
            previews.set(file, URL.createObjectURL(file));
            previewMade();
          },
          () => {},
        );
    }
    const files = new Set(items.map((item) => item.file));
    for (const file of checked) {
      if (files.has(file)) continue;
      checked.delete(file);
      const url = previews.get(file);
      if (url) URL.revokeObjectURL(url);
      previews.delete(file);
    }
  }, [items, previews, checked]);
  useEffect(
    () => () => {
      for (const url of previews.values()) URL.revokeObjectURL(url);
      previews.clear();
      checked.clear();
    },
    [previews, checked],
  );
  return previews;
}

/**
 * The product's photos in the product form: add several files at once, put them in order, choose the
 * cover (the first), remove one, and give each an alt text in both languages. Nothing reaches the
 * server before the admin saves the product; then each new file is uploaded with its own progress bar.
 */
export function PhotoManager({ items, onChange, productName, saving, failureText }: PhotoManagerProps) {
  const { t } = useTranslation();
  const id = useId();
  const previews = useFilePreviews(items);
  const [notice, setNotice] = useState<string | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const fileInput = useRef<HTMLInputElement>(null);
  const [focusAfter, setFocusAfter] = useState<{ key: string; action: Action } | 'add' | null>(null);
  const room = MAX_PRODUCT_PHOTOS - items.length;

  // Moving a photo moves its buttons: the focus goes with the button that was pressed.
  useEffect(() => {
    if (!focusAfter) return;
    if (focusAfter === 'add') fileInput.current?.focus();
    else buttons.current.get(`${focusAfter.key}:${focusAfter.action}`)?.focus();
    setFocusAfter(null);
  }, [focusAfter, items]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(event.target.files ?? [])];
    event.target.value = '';
    if (chosen.length === 0) return;
    const taken = chosen.slice(0, Math.max(room, 0));
    setNotice(taken.length < chosen.length ? t('admin.products.photos.notAllAdded', { max: MAX_PRODUCT_PHOTOS, added: taken.length, chosen: chosen.length }) : null);
    if (taken.length > 0) onChange([...items, ...taken.map(fileItemOf)]);
  };

  const move = (index: number, to: number, action: Action) => {
    if (saving || to < 0 || to >= items.length || to === index) return;
    const next = [...items];
    const [item] = next.splice(index, 1);
    next.splice(to, 0, item!);
    onChange(next);
    setFocusAfter({ key: item!.key, action });
  };

  // A product keeps one photo at least (its cover); a file not uploaded yet can always go.
  const removable = (item: PhotoItem) => items.length > 1 || !item.photo;

  const remove = (index: number) => {
    if (saving || !removable(items[index]!)) return;
    const next = items.filter((_, other) => other !== index);
    onChange(next);
    setNotice(null);
    // The focus goes to the Remove button now in the removed photo's place (or the last photo's).
    const neighbour = next[Math.min(index, next.length - 1)];
    setFocusAfter(neighbour ? { key: neighbour.key, action: 'remove' } : 'add');
  };

  const update = (index: number, change: Partial<PhotoItem>) => onChange(items.map((item, other) => (other === index ? { ...item, ...change } : item)));

  const buttonRef = (key: string, action: Action) => (element: HTMLButtonElement | null) => {
    if (element) buttons.current.set(`${key}:${action}`, element);
    else buttons.current.delete(`${key}:${action}`);
  };

  return (
    <fieldset className="field photo-manager" aria-describedby={`${id}-hint`}>
      <legend className="field__label">{t('admin.products.photos.legend')} *</legend>
      <p id={`${id}-hint`} className="field__hint">
        {t('admin.products.photos.hint', { max: MAX_PRODUCT_PHOTOS })}
      </p>
      <p className="photo-manager__count" aria-live="polite">
        {t('admin.products.photos.count', { photos: items.length, max: MAX_PRODUCT_PHOTOS })}
      </p>
      {items.length > 0 && (
        <ol className="photo-manager__list" aria-label={t('admin.products.photos.legend')}>
          {items.map((item, index) => {
            const number = index + 1;
            const src = item.photo ? `${item.photo.url}?w=320` : item.file ? previews.get(item.file) : undefined;
            const first = index === 0;
            const last = index === items.length - 1;
            return (
              <li key={item.key} className="photo-manager__item">
                <div className="photo-manager__preview">
                  {src && <img src={src} alt={t('admin.products.photos.thumbnail', { number })} width={96} height={96} className="photo-manager__thumb" />}
                  <div className="photo-manager__status">
                    <span className="photo-manager__number">{t('admin.products.photos.photo', { number })}</span>
                    {first && <span className="photo-manager__cover">{t('admin.products.photos.cover')}</span>}
                    {item.file && item.progress === undefined && !item.failed && <span className="field__hint">{t('admin.products.photos.pending')}</span>}
                    {item.failed && <span className="photo-manager__failed">{t(item.failed.refused ? 'admin.products.photos.refused' : 'admin.products.photos.failed')}</span>}
                    {item.file && <span className="field__hint photo-manager__file">{item.file.name}</span>}
                  </div>
                </div>
                {item.failed && (
                  <p id={`${id}-${item.key}-failure`} className="photo-manager__failure">
                    {failureText(item.failed.reason)} {t(item.failed.refused ? 'admin.products.photos.refusedHint' : 'admin.products.photos.failedHint')}
                  </p>
                )}
                {item.progress !== undefined && (
                  <div className="progress">
                    <progress max={100} value={item.progress} aria-label={t('admin.products.photos.uploading', { number, percent: item.progress })} />
                    <span>{item.progress}%</span>
                  </div>
                )}
                <div className="photo-manager__alts">
                  {(['En', 'Bg'] as const).map((language) => (
                    <div className="field photo-manager__alt" key={language}>
                      <label className="field__label" htmlFor={`${id}-${item.key}-alt${language}`}>
                        {t(`admin.products.photos.alt${language}`)}
                        <span className="visually-hidden">{t('admin.products.photos.ofPhoto', { number })}</span>
                      </label>
                      <input
                        id={`${id}-${item.key}-alt${language}`}
                        className="field__input"
                        lang={language === 'En' ? 'en' : 'bg'}
                        value={item[`alt${language}`]}
                        placeholder={language === 'En' ? productName.en || productName.bg : productName.bg || productName.en}
                        maxLength={MAX_PHOTO_ALT_LENGTH}
                        onChange={(event) => update(index, { [`alt${language}`]: event.target.value })}
                        readOnly={saving}
                      />
                    </div>
                  ))}
                </div>
                <div className="photo-manager__actions">
                  <button
                    ref={buttonRef(item.key, 'earlier')}
                    type="button"
                    className="button button--small"
                    aria-disabled={first || saving}
                    aria-label={t('admin.products.photos.moveEarlierLabel', { number })}
                    onClick={() => move(index, index - 1, 'earlier')}
                  >
                    {t('admin.products.photos.moveEarlier')}
                  </button>
                  <button
                    ref={buttonRef(item.key, 'later')}
                    type="button"
                    className="button button--small"
                    aria-disabled={last || saving}
                    aria-label={t('admin.products.photos.moveLaterLabel', { number })}
                    onClick={() => move(index, index + 1, 'later')}
                  >
                    {t('admin.products.photos.moveLater')}
                  </button>
                  <button
                    ref={buttonRef(item.key, 'cover')}
                    type="button"
                    className="button button--small"
                    aria-disabled={first || saving}
                    aria-label={t('admin.products.photos.makeCoverLabel', { number })}
                    onClick={() => move(index, 0, 'cover')}
                  >
                    {t('admin.products.photos.makeCover')}
                  </button>
                  <button
                    ref={buttonRef(item.key, 'remove')}
                    type="button"
                    className="button button--small button--ghost"
                    aria-disabled={!removable(item) || saving}
                    aria-label={t('admin.products.photos.removeLabel', { number })}
                    aria-describedby={item.failed ? `${id}-${item.key}-failure` : undefined}
                    onClick={() => remove(index)}
                  >
                    {t('admin.products.photos.remove')}
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {room > 0 ? (
        <div className="field photo-manager__add">
          <label className="field__label" htmlFor={`${id}-files`}>
            {t('admin.products.photos.add')}
          </label>
          <input
            ref={fileInput}
            id={`${id}-files`}
            className="field__input"
            type="file"
            multiple
            accept="image/jpeg,image/png,image/webp"
            onChange={choose}
            disabled={saving}
            aria-describedby={`${id}-hint`}
          />
        </div>
      ) : (
        <p className="field__hint">{t('admin.products.photos.full', { max: MAX_PRODUCT_PHOTOS })}</p>
      )}
      {notice && (
        <p className="form-error" role="alert">
          {notice}
        </p>
      )}
    </fieldset>
  );
}
