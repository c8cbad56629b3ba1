import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PRODUCT_IMAGE_WIDTHS } from '#shared/catalog.js';
import { combinationKey, PLAIN_PRODUCT_MODEL, type OptionGroup, type ProductModel, type ProductQuestion } from '#shared/product-options.js';
import type { ReturnRule } from '#shared/withdrawals.js';
import { projectPath } from '#server/project-path.js';

type DemoCategory = 'nails' | 'nail-art' | 'accessories' | 'kits';

export interface DemoProduct {
  name: string;
  description: string;
  /** The Bulgarian name and description. */
  nameBg: string;
  descriptionBg: string;
  priceMinor: number;
  category: DemoCategory;
  /** Pieces in stock; null for made to order. */
  stock: number | null;
  /** The photo's name: photos/{photo}-{width}.webp in every product image width, drawn by demo-art.ts. */
  photo: string;
  /** Options, sizing, questions and lead time; prices in BGN minor units, as priceMinor. */
  model: Omit<ProductModel, 'priceMinor'>;
  /** 'standard' unless given. */
  returnRule?: ReturnRule;
}

const SHAPE: OptionGroup = {
  id: 'shape',
  name: { en: 'Shape', bg: 'Форма' },
  values: [
    { id: 'almond', name: { en: 'Almond', bg: 'Бадем' }, priceDeltaMinor: 0 },
    { id: 'coffin', name: { en: 'Coffin', bg: 'Балерина' }, priceDeltaMinor: 0 },
    { id: 'stiletto', name: { en: 'Stiletto', bg: 'Стилето' }, priceDeltaMinor: 0 },
    { id: 'square', name: { en: 'Square', bg: 'Квадрат' }, priceDeltaMinor: 0 },
    { id: 'oval', name: { en: 'Oval', bg: 'Овал' }, priceDeltaMinor: 0 },
  ],
};

// Longer nails take more gel and more painting.
const LENGTH: OptionGroup = {
  id: 'length',
  name: { en: 'Length', bg: 'Дължина' },
  values: [
    { id: 'short', name: { en: 'Short', bg: 'Къси' }, priceDeltaMinor: 0 },
    { id: 'medium', name: { en: 'Medium', bg: 'Средни' }, priceDeltaMinor: 0 },
    { id: 'long', name: { en: 'Long', bg: 'Дълги' }, priceDeltaMinor: 300 },
    { id: 'extra-long', name: { en: 'Extra long', bg: 'Много дълги' }, priceDeltaMinor: 600 },
  ],
};

const DESIGN_WISH: ProductQuestion = {
  id: 'design-wish',
  kind: 'text',
  label: { en: 'Design wish', bg: 'Желание за дизайна' },
  required: false,
  priceDeltaMinor: 0,
  maxLength: 200,
};

const GIFT_WRAPPING: ProductQuestion = {
  id: 'gift-wrapping',
  kind: 'choice',
  label: { en: 'Gift wrapping', bg: 'Подаръчна опаковка' },
  required: false,
  priceDeltaMinor: 0,
  choices: [
    { id: 'ribbon', name: { en: 'Satin ribbon', bg: 'Сатенена панделка' }, priceDeltaMinor: 300 },
    { id: 'gift-box', name: { en: 'Gift box with a card', bg: 'Подаръчна кутия с картичка' }, priceDeltaMinor: 700 },
  ],
};

const MADE_TO_ORDER = { kind: 'made_to_order', minDays: 5, maxDays: 10 } as const;

/** Each shape in each length, with the sets the maker has ready: counted, or made when ordered (null). */
function combinationsOf(ready: Readonly<Record<string, number>>): ProductModel['combinations'] {
  return SHAPE.values.flatMap((shape) =>
    LENGTH.values.map((length) => {
      const key = combinationKey([SHAPE, LENGTH], { shape: shape.id, length: length.id });
      return { key, stock: ready[key] ?? null };
    }),
  );
}

/**
 * Read from the sources even when the server runs from the build, as the migrations are: the
 * TypeScript compiler copies no other files into dist/.
 */
export const DEMO_PHOTOS_DIR = projectPath('src/server/demo/photos');

export const demoPhotoPath = (photo: string, width: number) => path.join(DEMO_PHOTOS_DIR, `${photo}-${width}.webp`);

/** A demo photo's WebP files, ready to store, by width. */
export async function readDemoPhoto(photo: string): Promise<Map<number, Buffer>> {
  const files = await Promise.all(PRODUCT_IMAGE_WIDTHS.map(async (width) => [width, await readFile(demoPhotoPath(photo, width))] as const));
  return new Map(files);
}

export const demoProducts: readonly DemoProduct[] = [
  {
    name: 'Blush Pearl Almond Set',
    description: 'Twenty-four almond press-on nails in blush and milky pink, finished with tiny glass pearls and a fine gold foil line.',
    nameBg: 'Комплект бадемовидни нокти „Розова перла“',
    descriptionBg: 'Двадесет и четири бадемовидни изкуствени нокътя за залепване в пудрено и млечнорозово, довършени с мънички стъклени перли и тънка линия от златно фолио.',
    priceMinor: 3400,
    category: 'nails',
    stock: 12,
    photo: 'blush-pearl-almond-set',
    model: PLAIN_PRODUCT_MODEL,
  },
  {
    name: 'Midnight Galaxy Coffin Set',
    description: 'Long coffin nails hand-painted in deep indigo and orchid, layered with holographic glitter and a glossy gel top coat. 24 nails.',
    nameBg: 'Нокти балерина „Среднощна галактика“',
    descriptionBg: 'Дълги нокти с форма балерина, изрисувани на ръка в наситено индиго и цвят орхидея, с пластове холографски брокат и лъскав гел топ. 24 нокътя.',
    priceMinor: 3900,
    category: 'nails',
    stock: 1,
    photo: 'midnight-galaxy-coffin-set',
    model: PLAIN_PRODUCT_MODEL,
  },
  {
    name: 'Cherry Blossom Stilettos',
    description:
      'Sheer pink nails with hand-painted sakura branches, each blossom dotted by brush. Shown as stilettos; painted to order in the shape and length you choose, a set of 20 in your ten sizes.',
    nameBg: 'Нокти стилето „Черешов цвят“',
    descriptionBg:
      'Прозрачнорозови нокти с ръчно рисувани клонки сакура – всяко цветче е нанесено с четка, точка по точка. На снимката са стилето; рисуваме ги по поръчка във формата и дължината по ваш избор – комплект от 20 броя по вашите десет размера.',
    priceMinor: 4200,
    category: 'nails',
    stock: null,
    photo: 'cherry-blossom-stilettos',
    model: {
      ...PLAIN_PRODUCT_MODEL,
      optionGroups: [SHAPE, LENGTH],
      sized: true,
      questions: [DESIGN_WISH, GIFT_WRAPPING],
      leadTime: MADE_TO_ORDER,
    },
  },
  {
    name: 'Gold Foil French Tips',
    description:
      'Warm nude nails with a crisp ivory tip and a real gold foil smile line: 24 nails for everyday elegance. Shown short and square; made in the shape and length you choose, to your ten nail sizes, and a few favourites are ready to send.',
    nameBg: 'Френски маникюр със златно фолио',
    descriptionBg:
      'Нокти в топъл нюд с ясно очертан връх в слонова кост и линия на усмивката от истинско златно фолио – 24 нокътя за всекидневна елегантност. На снимката са къси и квадратни; изработваме ги във формата и дължината по ваш избор, по вашите десет размера, а някои от най-търсените са готови за изпращане.',
    priceMinor: 2950,
    category: 'nails',
    // Counted per shape and length (the combinations below).
    stock: null,
    photo: 'gold-foil-french-tips',
    model: {
      optionGroups: [SHAPE, LENGTH],
      stockMode: 'combination',
      // Some sets are ready in the favourite shapes; extra long stilettos are not made in this design.
      combinations: combinationsOf({ 'square/short': 3, 'square/medium': 2, 'almond/short': 2, 'almond/medium': 0, 'oval/short': 1 }).filter(
        (combination) => combination.key !== 'stiletto/extra-long',
      ),
      sized: true,
      questions: [DESIGN_WISH, GIFT_WRAPPING],
      leadTime: MADE_TO_ORDER,
    },
  },
  {
    name: 'Pastel Daisy Decals',
    description: 'A sheet of 48 water-slide daisy decals in five pastel shades. Slide on, seal with top coat, and enjoy a spring garden.',
    nameBg: 'Стикери за нокти „Пастелни маргаритки“',
    descriptionBg: 'Лист с 48 водни стикера за нокти с маргаритки в пет пастелни нюанса. Поставете ги, запечатайте с топ лак и се радвайте на пролетна градина.',
    priceMinor: 850,
    category: 'nail-art',
    stock: null,
    photo: 'pastel-daisy-decals',
    model: { ...PLAIN_PRODUCT_MODEL, leadTime: MADE_TO_ORDER },
  },
  {
    name: 'Crystal Rhinestone Wheel',
    description: 'Over 1,200 flat-back glass rhinestones in eight sparkling colours, neatly sorted in a clear rotating wheel.',
    nameBg: 'Кристали за нокти във въртяща се кутийка',
    descriptionBg: 'Над 1200 стъклени кристала с плоско дъно в осем искрящи цвята, прегледно подредени в прозрачна въртяща се кутийка.',
    priceMinor: 1690,
    category: 'nail-art',
    stock: 40,
    photo: 'crystal-rhinestone-wheel',
    model: PLAIN_PRODUCT_MODEL,
  },
  {
    name: 'Tiny Heart Charms',
    description: 'Thirty puffy 3D heart charms in gold, rose gold and pink enamel, packed in a little glass jar with a cork lid.',
    nameBg: 'Мънички 3D сърчица за нокти',
    descriptionBg: 'Тридесет изпъкнали 3D сърчица в златно, розово злато и розов емайл, опаковани в малко стъклено бурканче с коркова капачка.',
    priceMinor: 1250,
    category: 'nail-art',
    stock: 0,
    photo: 'tiny-heart-charms',
    model: PLAIN_PRODUCT_MODEL,
  },
  {
    name: 'Hand-Painted Lemon Tips',
    description: 'Ten oval tips painted by hand with juicy lemon slices and polka dots on cream and sky blue, sealed with a glossy finish.',
    nameBg: 'Ръчно рисувани нокти „Лимончета“',
    descriptionBg: 'Десет овални нокътя, рисувани на ръка със сочни резенчета лимон и точици върху кремав и небесносин фон, запечатани с лъскаво покритие.',
    priceMinor: 2400,
    category: 'nail-art',
    stock: 1,
    photo: 'hand-painted-lemon-tips',
    model: PLAIN_PRODUCT_MODEL,
  },
  {
    name: 'Rose Glass Nail File',
    description: 'A double-sided Czech glass file in rose pink that shapes gently without splitting, tucked into a soft velvet sleeve.',
    nameBg: 'Стъклена пила за нокти в розово',
    descriptionBg: 'Двустранна пила за нокти от чешко стъкло в нежнорозово, която оформя нежно, без да цепи нокътя. Прибрана е в мек кадифен калъф.',
    priceMinor: 1490,
    category: 'accessories',
    stock: 3,
    photo: 'rose-glass-nail-file',
    model: PLAIN_PRODUCT_MODEL,
  },
  {
    name: 'Vanilla Cuticle Oil',
    description: 'Nourishing jojoba and sweet almond oil scented with real vanilla, in a 15 ml amber glass bottle with a dropper.',
    nameBg: 'Масло за кожички с ванилия',
    descriptionBg: 'Подхранващо масло от жожоба и сладък бадем с аромат на истинска ванилия, в шишенце от кехлибарено стъкло с капкомер, 15 мл.',
    priceMinor: 1550,
    category: 'accessories',
    stock: null,
    photo: 'vanilla-cuticle-oil',
    model: { ...PLAIN_PRODUCT_MODEL, leadTime: MADE_TO_ORDER },
    // An opened bottle cannot be sold again.
    returnRule: 'hygiene_sealed',
  },
  {
    name: 'Pearl Keepsake Storage Box',
    description: 'A pearl-white box with six soft-lined compartments to keep your press-on sets safe, sorted and ready to wear again.',
    nameBg: 'Перлена кутия за съхранение',
    descriptionBg: 'Кутия в перленобяло с шест отделения с мека подплата, в които комплектите ви изкуствени нокти за залепване остават запазени, подредени и готови за ново носене.',
    priceMinor: 3200,
    category: 'accessories',
    stock: 2,
    photo: 'pearl-keepsake-storage-box',
    model: PLAIN_PRODUCT_MODEL,
  },
  {
    name: 'Press-On Starter Kit',
    description: 'Everything for a first manicure at home: 20 nude coffin nails, nail glue, a mini file, a wooden cuticle stick and prep pads.',
    nameBg: 'Стартов комплект с изкуствени нокти за залепване',
    descriptionBg: 'Всичко за първия маникюр у дома: 20 нокътя в нюд с форма балерина, лепило за нокти, мини пила, дървена клечица за кожички и тампони за подготовка.',
    priceMinor: 4900,
    category: 'kits',
    stock: 15,
    photo: 'press-on-starter-kit',
    model: PLAIN_PRODUCT_MODEL,
  },
  {
    name: 'Nail Sizing Kit',
    description:
      'Find your ten sizes before you order a set made for you: twelve clear sample tips in sizes 0 to 11, a paper measuring tape and a card to write your sizes on. ' +
      'How to measure: for each finger, hold the sample tips over your bare nail one at a time, from the widest down. Your size is the tip that covers the nail from one side to the other without pressing on the skin; between two sizes, take the wider one. ' +
      'Or lay the tape across the widest part of the nail, side to side, and read the width in millimetres: the size chart on every sized product tells which size that is. ' +
      'Measure all ten, the left hand first: thumb, index, middle, ring and little finger, then the right hand the same way. Save them in your profile (My nail sizes), and every set you order fills them in for you.',
    nameBg: 'Комплект за измерване на ноктите',
    descriptionBg:
      'Открийте десетте си размера, преди да поръчате комплект по мярка: дванадесет прозрачни пробни нокътя в размери от 0 до 11, хартиена мерителна лента и картичка, на която да запишете размерите си. ' +
      'Как да измерите: за всеки пръст поставяйте пробните нокти върху чистия си нокът един по един, като започнете от най-широкия. Вашият размер е нокътят, който покрива вашия от единия до другия край, без да натиска кожата; ако сте между два размера, изберете по-широкия. ' +
      'Можете и да поставите лентата напречно през най-широката част на нокътя и да отчетете ширината в милиметри – таблицата с размерите на всеки продукт по мярка показва кой размер отговаря на нея. ' +
      'Измерете и десетте, като започнете от лявата ръка: палец, показалец, среден пръст, безименен пръст и кутре, после и дясната ръка по същия начин. Запазете ги в профила си и те ще се попълват сами при всяка поръчка.',
    priceMinor: 600,
    category: 'kits',
    stock: 25,
    photo: 'nail-sizing-kit',
    model: { ...PLAIN_PRODUCT_MODEL, leadTime: { kind: 'ready', days: 1 } },
  },
  {
    name: 'Blossom Gift Box',
    description: 'A blush gift box tied with gold ribbon, holding a handmade press-on set of your choice, cuticle oil and a glass file.',
    nameBg: 'Подаръчна кутия „Пролетен цвят“',
    descriptionBg: 'Подаръчна кутия в пудрено розово, вързана със златна панделка, с ръчно изработен комплект изкуствени нокти за залепване по ваш избор, масло за кожички и стъклена пила.',
    priceMinor: 6900,
    category: 'kits',
    stock: null,
    photo: 'blossom-gift-box',
    model: { ...PLAIN_PRODUCT_MODEL, leadTime: MADE_TO_ORDER },
  },
  {
    name: 'Deluxe Nail Artist Kit',
    description: 'A satin-lined case with five detail brushes, four rich polishes and three pots of glitter for creating your own designs.',
    nameBg: 'Луксозен комплект за нейл арт',
    descriptionBg: 'Куфарче със сатенена подплата с пет четки за детайли, четири лака в наситени цветове и три бурканчета брокат, за да създавате свои собствени дизайни.',
    priceMinor: 8900,
    category: 'kits',
    stock: null,
    photo: 'deluxe-nail-artist-kit',
    model: { ...PLAIN_PRODUCT_MODEL, leadTime: MADE_TO_ORDER },
  },
];
