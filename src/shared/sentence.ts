/**
 * A value filled into a text, then the full stop the text puts after it, unless the value ends a
 * sentence with its own ("76,39 лв."): e-mails and pages both fill amounts in at a sentence's end.
 */
export const endingSentence = (value: string, stop: string): string => (stop && value.endsWith('.') ? value : value + stop);
