import { describe, expect, it } from 'vitest';
import { bulgarianAmountInWords, bulgarianNumber, englishAmountInWords, englishNumber } from './amount-in-words.js';

describe('bulgarianNumber', () => {
  it.each([
    [0, 'masculine', 'нула'],
    [1, 'masculine', 'един'],
    [1, 'feminine', 'една'],
    [1, 'neuter', 'едно'],
    [2, 'masculine', 'два'],
    [2, 'neuter', 'две'],
    [11, 'masculine', 'единадесет'],
    [20, 'masculine', 'двадесет'],
    [21, 'feminine', 'двадесет и една'],
    [100, 'masculine', 'сто'],
    [101, 'masculine', 'сто и един'],
    [120, 'masculine', 'сто и двадесет'],
    [125, 'masculine', 'сто двадесет и пет'],
    [212, 'masculine', 'двеста и дванадесет'],
    [999, 'masculine', 'деветстотин деветдесет и девет'],
    [1000, 'masculine', 'хиляда'],
    [1001, 'masculine', 'хиляда и един'],
    [1020, 'masculine', 'хиляда и двадесет'],
    [1200, 'masculine', 'хиляда и двеста'],
    [1250, 'masculine', 'хиляда двеста и петдесет'],
    [2000, 'masculine', 'две хиляди'],
    [2021, 'neuter', 'две хиляди двадесет и едно'],
    [21_000, 'masculine', 'двадесет и една хиляди'],
    [125_000, 'masculine', 'сто двадесет и пет хиляди'],
    [125_300, 'masculine', 'сто двадесет и пет хиляди и триста'],
    [1_000_000, 'masculine', 'един милион'],
    [1_000_005, 'masculine', 'един милион и пет'],
    [1_300_000, 'masculine', 'един милион и триста хиляди'],
    [2_000_000, 'masculine', 'два милиона'],
    [21_001_002, 'feminine', 'двадесет и един милиона хиляда и две'],
  ] as const)('%i (%s) is "%s"', (number, gender, words) => {
    expect(bulgarianNumber(number, gender)).toBe(words);
  });

  it('refuses what is not a whole amount', () => {
    expect(() => bulgarianNumber(-1, 'masculine')).toThrow(RangeError);
    expect(() => bulgarianNumber(1.5, 'masculine')).toThrow(RangeError);
  });
});

describe('bulgarianAmountInWords', () => {
  it.each([
    [12345, 'BGN', 'сто двадесет и три лева и четиридесет и пет стотинки'],
    [100, 'BGN', 'един лев'],
    [201, 'BGN', 'два лева и една стотинка'],
    [2102, 'BGN', 'двадесет и един лева и две стотинки'],
    [50, 'BGN', 'нула лева и петдесет стотинки'],
    [100, 'EUR', 'едно евро'],
    [202, 'EUR', 'две евро и два евроцента'],
    [2101, 'EUR', 'двадесет и едно евро и един евроцент'],
    [150_000, 'EUR', 'хиляда и петстотин евро'],
  ] as const)('%i %s is "%s"', (amount, currency, words) => {
    expect(bulgarianAmountInWords(amount, currency)).toBe(words);
  });
});

describe('englishAmountInWords', () => {
  it.each([
    [0, 'zero'],
    [15, 'fifteen'],
    [42, 'forty-two'],
    [105, 'one hundred and five'],
    [1005, 'one thousand and five'],
    [1105, 'one thousand one hundred and five'],
    [2_000_000, 'two million'],
  ])('%i is "%s"', (number, words) => {
    expect(englishNumber(number)).toBe(words);
  });

  it.each([
    [12345, 'EUR', 'one hundred and twenty-three euro and forty-five cents'],
    [101, 'EUR', 'one euro and one cent'],
    [200, 'BGN', 'two leva'],
    [101, 'BGN', 'one lev and one stotinka'],
  ] as const)('%i %s is "%s"', (amount, currency, words) => {
    expect(englishAmountInWords(amount, currency)).toBe(words);
  });
});
