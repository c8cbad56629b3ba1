import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { GALLERY_PHOTO_SIZES, photoSrcSet, type Product } from '#shared/catalog.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useLocalize } from '#client/i18n/localized.js';
import { Dialog } from '#client/ui/dialog.js';

/** A horizontal move of at least this many pixels is a swipe to the next or previous photo. */
const SWIPE_PX = 40;

/**
 * A product's photos: the chosen one large, thumbnails to choose with a click, a tap or the arrow
 * keys, a swipe on the large photo, and a larger view in a dialog.
 */
export function ProductGallery({ product }: { product: Product }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const id = useId();
  const [index, setIndex] = useState(0);
  const [enlarged, setEnlarged] = useState(false);
  const swipeStart = useRef<number | null>(null);
  // A swipe ends in a click on the photo too; only a tap that did not move opens the larger view.
  const swiped = useRef(false);
  const thumbnails = useRef<(HTMLButtonElement | null)[]>([]);
  const photos = product.photos;
  const count = photos.length;
  const name = localize(product.name);
  if (count === 0) return null;
  const shown = Math.min(index, count - 1);
  const photo = photos[shown]!;
  const alt = localize(photo.alt) || name;

  const show = (next: number) => setIndex((next + count) % count);
  const onThumbnailKey = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: shown + 1, ArrowLeft: shown - 1, Home: 0, End: count - 1 };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = (next + count) % count;
    setIndex(target);
    thumbnails.current[target]?.focus();
  };
  const onPointerDown = (event: PointerEvent) => {
    swipeStart.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = swipeStart.current;
    swipeStart.current = null;
    if (start === null || count < 2) return;
    const moved = event.clientX - start;
    if (Math.abs(moved) >= SWIPE_PX) show(moved < 0 ? shown + 1 : shown - 1);
  };

  return (
    <div className="gallery" role="group" aria-label={t('productPage.photos', { productName: name })}>
      <div
        className="gallery__stage"
        onPointerDown={(event) => {
          swiped.current = false;
          onPointerDown(event);
        }}
        onPointerUp={(event) => {
          if (swipeStart.current !== null && Math.abs(event.clientX - swipeStart.current) >= SWIPE_PX) swiped.current = true;
          onPointerUp(event);
        }}
      >
        <button
          type="button"
          className="gallery__enlarge"
          aria-label={t('productPage.enlarge', { index: shown + 1, count })}
          onClick={() => {
            if (!swiped.current) setEnlarged(true);
          }}
        >
          <img
            src={`${photo.url}?w=960`}
            srcSet={photoSrcSet(photo.url)}
            sizes={GALLERY_PHOTO_SIZES}
            width={960}
            height={960}
            alt={alt}
            // The first photo is what a visitor came for: it loads first (the page's largest paint).
            fetchPriority={shown === 0 ? 'high' : 'auto'}
            draggable={false}
          />
        </button>
        {count > 1 && (
          <>
            <button type="button" className="gallery__step gallery__step--previous" aria-label={t('productPage.previousPhoto')} onClick={() => show(shown - 1)}>
              ‹
            </button>
            <button type="button" className="gallery__step gallery__step--next" aria-label={t('productPage.nextPhoto')} onClick={() => show(shown + 1)}>
              ›
            </button>
            <p className="gallery__position" aria-live="polite">
              {t('productPage.photo', { index: shown + 1, count })}
            </p>
          </>
        )}
      </div>
      {count > 1 && (
        <div className="gallery__thumbnails" onKeyDown={onThumbnailKey}>
          {photos.map((thumbnail, position) => (
            <button
              key={thumbnail.id}
              ref={(button) => {
                thumbnails.current[position] = button;
              }}
              type="button"
              className="gallery__thumbnail"
              aria-label={t('productPage.showPhoto', { index: position + 1, count })}
              aria-current={position === shown || undefined}
              // One Tab stop for the row; the arrow keys move within it.
              tabIndex={position === shown ? 0 : -1}
              onClick={() => setIndex(position)}
            >
              <img src={`${thumbnail.url}?w=320`} alt="" width={72} height={72} loading="lazy" decoding="async" />
            </button>
          ))}
        </div>
      )}
      {enlarged && (
        <Dialog titleId={`${id}-title`} className="lightbox" onClose={() => setEnlarged(false)}>
          <div
            className="lightbox__body"
            onKeyDown={(event) => {
              if (event.key === 'ArrowRight') show(shown + 1);
              else if (event.key === 'ArrowLeft') show(shown - 1);
            }}
            onPointerDown={onPointerDown}
            onPointerUp={onPointerUp}
          >
            <h2 id={`${id}-title`} className="lightbox__title">
              {name} · {t('productPage.photo', { index: shown + 1, count })}
            </h2>
            <img className="lightbox__image" src={`${photo.url}?w=960`} alt={alt} width={960} height={960} draggable={false} />
            <div className="lightbox__actions">
              {count > 1 && (
                <button type="button" className="button" onClick={() => show(shown - 1)}>
                  {t('productPage.previousPhoto')}
                </button>
              )}
              <button type="button" className="button button--primary" data-autofocus onClick={() => setEnlarged(false)}>
                {t('productPage.closePhoto')}
              </button>
              {count > 1 && (
                <button type="button" className="button" onClick={() => show(shown + 1)}>
                  {t('productPage.nextPhoto')}
                </button>
              )}
            </div>
          </div>
        </Dialog>
      )}
    </div>
  );
}
