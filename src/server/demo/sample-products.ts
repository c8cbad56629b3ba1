import { PRODUCT_CATEGORIES } from '#shared/catalog.js';
import { productSearchColumns } from '#shared/search.js';
import type { Executor } from '#server/db/client.js';
import { productPhotos, products } from '#server/db/schema.js';

/*
 * A large catalogue for measuring and for testing search among many products: press-on sets named
 * from colours, finishes and shapes in both languages, numbered. Their words are a nail shop's
 * everyday ones, and none of the demo catalogue's own (pearl, cherry, lemon, galaxy...), so that a
 * search for a demo product must still find it among them.
 */
const COLOURS = [
  ['Coral', 'Коралов'],
  ['Lilac', 'Люляков'],
  ['Emerald', 'Изумруден'],
  ['Sapphire', 'Сапфирен'],
  ['Peach', 'Прасковен'],
  ['Mocha', 'Мока'],
  ['Ruby', 'Рубинен'],
  ['Sky Blue', 'Небесносин'],
] as const;
const FINISHES = [
  ['Chrome', 'хромиран'],
  ['Matte', 'матов'],
  ['Ombre', 'омбре'],
  ['Marble', 'мраморен'],
  ['Velvet', 'кадифен'],
] as const;
const SHAPES = [
  ['Square', 'квадратни'],
  ['Oval', 'овални'],
  ['Ballerina', 'балерина'],
  ['Squoval', 'скоувал'],
] as const;
const LENGTHS = [
  ['short', 'къса'],
  ['medium', 'средна'],
  ['long', 'дълга'],
] as const;

/** The sample product of this number (0, 1, 2...): the same number makes the same names. */
function sampleProduct(number: number) {
  const [colourEn, colourBg] = COLOURS[number % COLOURS.length]!;
  const [finishEn, finishBg] = FINISHES[Math.floor(number / COLOURS.length) % FINISHES.length]!;
  const [shapeEn, shapeBg] = SHAPES[Math.floor(number / (COLOURS.length * FINISHES.length)) % SHAPES.length]!;
  const [lengthEn, lengthBg] = LENGTHS[number % LENGTHS.length]!;
  const nameEn = `${colourEn} ${finishEn} ${shapeEn} Press-Ons No. ${number}`;
  const nameBg = `${colourBg} ${finishBg} ${shapeBg} изкуствени нокти № ${number}`;
  const descriptionEn = `Handmade ${shapeEn.toLowerCase()} press-on nails in ${colourEn.toLowerCase()} with a ${finishEn.toLowerCase()} finish, ${lengthEn} length. Sample number ${number}.`;
  const descriptionBg = `Ръчно изработени ${shapeBg} изкуствени нокти, ${colourBg.toLowerCase()} цвят, ${finishBg} вид, ${lengthBg} дължина. Мостра номер ${number}.`;
  return {
    id: crypto.randomUUID(),
    nameEn,
    nameBg,
    descriptionEn,
    descriptionBg,
    slug: `sample-${number}`,
    ...productSearchColumns({ en: nameEn, bg: nameBg }, { en: descriptionEn, bg: descriptionBg }),
    priceMinor: 500 + ((number * 737) % 9500),
    category: PRODUCT_CATEGORIES[number % PRODUCT_CATEGORIES.length]!,
    stock: number % 5 === 0 ? null : number % 7,
  };
}

const BATCH = 500;

/**
 * Adds this many sample products, numbered from `start`, each with one of these photos (the demo
 * catalogue's, say) as its cover when there are any.
 */
export async function insertSampleProducts(db: Executor, count: number, start = 0, photoKeys: readonly string[] = []): Promise<void> {
  for (let offset = 0; offset < count; offset += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - offset) }, (_, index) => sampleProduct(start + offset + index));
    await db.insert(products).values(rows);
    if (photoKeys.length > 0) {
      await db.insert(productPhotos).values(rows.map((row, index) => ({ productId: row.id, position: 0, imageKey: photoKeys[index % photoKeys.length]! })));
    }
  }
}
