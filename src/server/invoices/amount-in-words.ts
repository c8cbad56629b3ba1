import type { Currency } from '#shared/money.js';

/**
 * The total of an invoice in words ("словом"), which Bulgarian invoices carry under the figures: whole
 * units and the minor part, each with its noun in the form the number asks for.
 */

type Gender = 'masculine' | 'feminine' | 'neuter';

interface Noun {
  gender: Gender;
  one: string;
  /** The form after a number other than one ("два лева", "пет евроцента"). */
  counted: string;
}

const BULGARIAN_UNITS: Record<Currency, { whole: Noun; minor: Noun }> = {
  BGN: { whole: { gender: 'masculine', one: 'лев', counted: 'лева' }, minor: { gender: 'feminine', one: 'стотинка', counted: 'стотинки' } },
  EUR: { whole: { gender: 'neuter', one: 'евро', counted: 'евро' }, minor: { gender: 'masculine', one: 'евроцент', counted: 'евроцента' } },
};

const ONE: Record<Gender, string> = { masculine: 'един', feminine: 'една', neuter: 'едно' };
const TWO: Record<Gender, string> = { masculine: 'два', feminine: 'две', neuter: 'две' };
const ONES = ['', '', '', 'три', 'четири', 'пет', 'шест', 'седем', 'осем', 'девет'];
const TEENS = ['десет', 'единадесет', 'дванадесет', 'тринадесет', 'четиринадесет', 'петнадесет', 'шестнадесет', 'седемнадесет', 'осемнадесет', 'деветнадесет'];
const TENS = ['', '', 'двадесет', 'тридесет', 'четиридесет', 'петдесет', 'шестдесет', 'седемдесет', 'осемдесет', 'деветдесет'];
const HUNDREDS = ['', 'сто', 'двеста', 'триста', 'четиристотин', 'петстотин', 'шестстотин', 'седемстотин', 'осемстотин', 'деветстотин'];

const unitWord = (digit: number, gender: Gender) => (digit === 1 ? ONE[gender] : digit === 2 ? TWO[gender] : ONES[digit]!);

/** The words of a number from 1 to 999, without the joining "и". */
function bulgarianHundreds(number: number, gender: Gender): string[] {
  const words: string[] = [];
  const hundreds = Math.floor(number / 100);
  const rest = number % 100;
  if (hundreds > 0) words.push(HUNDREDS[hundreds]!);
  if (rest >= 10 && rest < 20) words.push(TEENS[rest - 10]!);
  else {
    if (rest >= 20) words.push(TENS[Math.floor(rest / 10)]!);
    if (rest % 10 > 0) words.push(unitWord(rest % 10, gender));
  }
  return words;
}

/** Joins a group's words, with "и" before the last of several ("сто двадесет и пет"). */
const joinGroup = (words: string[]) => (words.length > 1 ? `${words.slice(0, -1).join(' ')} и ${words.at(-1)}` : words.join(''));

/**
 * A whole number in Bulgarian words, agreeing with the gender of what it counts. Groups of
 * thousands and millions each carry their own "и"; a last group of a single word is joined by one
 * ("хиляда и двеста", but "хиляда двеста и петдесет").
 */
export function bulgarianNumber(number: number, gender: Gender): string {
  if (!Number.isSafeInteger(number) || number < 0) throw new RangeError(`Not a whole amount: ${number}`);
  if (number === 0) return 'нула';
  const millions = Math.floor(number / 1_000_000);
  const thousands = Math.floor(number / 1000) % 1000;
  const units = number % 1000;
  // Each group: its number's words and the scale word after them ("двадесет и една" "хиляди").
  const groups: { words: string[]; scale: string }[] = [];
  if (millions > 0) groups.push(millions === 1 ? { words: ['един милион'], scale: '' } : { words: bulgarianHundreds(millions, 'masculine'), scale: 'милиона' });
  if (thousands > 0) groups.push(thousands === 1 ? { words: ['хиляда'], scale: '' } : { words: bulgarianHundreds(thousands, 'feminine'), scale: 'хиляди' });
  if (units > 0) groups.push({ words: bulgarianHundreds(units, gender), scale: '' });
  const rendered = groups.map(({ words, scale }) => (scale ? `${joinGroup(words)} ${scale}` : joinGroup(words)));
  if (rendered.length === 1) return rendered[0]!;
  const joiner = groups.at(-1)!.words.length === 1 ? ' и ' : ' ';
  return `${rendered.slice(0, -1).join(' ')}${joiner}${rendered.at(-1)}`;
}

const counted = (number: number, noun: Noun) => `${bulgarianNumber(number, noun.gender)} ${number === 1 ? noun.one : noun.counted}`;

/** An amount in minor units in Bulgarian words: "сто двадесет и три лева и четиридесет и пет стотинки". */
export function bulgarianAmountInWords(amountMinor: number, currency: Currency): string {
  const { whole, minor } = BULGARIAN_UNITS[currency];
  const units = Math.floor(amountMinor / 100);
  const cents = amountMinor % 100;
  const words = counted(units, whole);
  return cents === 0 ? words : `${words} и ${counted(cents, minor)}`;
}

const ENGLISH_ONES = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const ENGLISH_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function englishHundreds(number: number): string {
  const hundreds = Math.floor(number / 100);
  const rest = number % 100;
  const tens = rest < 20 ? ENGLISH_ONES[rest]! : `${ENGLISH_TENS[Math.floor(rest / 10)]}${rest % 10 > 0 ? `-${ENGLISH_ONES[rest % 10]}` : ''}`;
  if (hundreds === 0) return tens;
  return rest === 0 ? `${ENGLISH_ONES[hundreds]} hundred` : `${ENGLISH_ONES[hundreds]} hundred and ${tens}`;
}

/** A whole number in English words, British style ("one hundred and five"). */
export function englishNumber(number: number): string {
  if (!Number.isSafeInteger(number) || number < 0) throw new RangeError(`Not a whole amount: ${number}`);
  if (number === 0) return 'zero';
  const parts: string[] = [];
  for (const [size, name] of [[1_000_000, 'million'], [1000, 'thousand']] as const) {
    const group = Math.floor(number / size) % 1000;
    if (group > 0) parts.push(`${englishHundreds(group)} ${name}`);
  }
  const units = number % 1000;
  if (units > 0) parts.push(parts.length > 0 && units < 100 ? `and ${englishHundreds(units)}` : englishHundreds(units));
  return parts.join(' ');
}

const ENGLISH_UNITS: Record<Currency, { whole: [string, string]; minor: [string, string] }> = {
  BGN: { whole: ['lev', 'leva'], minor: ['stotinka', 'stotinki'] },
  EUR: { whole: ['euro', 'euro'], minor: ['cent', 'cents'] },
};

/** An amount in minor units in English words: "one hundred and twenty-three euro and forty-five cents". */
export function englishAmountInWords(amountMinor: number, currency: Currency): string {
  const { whole, minor } = ENGLISH_UNITS[currency];
  const units = Math.floor(amountMinor / 100);
  const cents = amountMinor % 100;
  const words = `${englishNumber(units)} ${units === 1 ? whole[0] : whole[1]}`;
  return cents === 0 ? words : `${words} and ${englishNumber(cents)} ${cents === 1 ? minor[0] : minor[1]}`;
}
