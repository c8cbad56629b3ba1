import { describe, expect, it } from 'vitest';
import { plainText } from './plain-text.js';

describe('plainText', () => {
  it.each([
    ['<p>Almond <strong>press-on</strong> set</p><p>24 nails</p>', 'Almond press-on set\n24 nails'],
    ['Line one<br>line two<br/>three', 'Line one\nline two\nthree'],
    ['<ul><li>glue</li><li>file</li></ul>', '• glue\n• file'],
    ['<script>alert(1)</script>Safe<style>p{}</style>', 'Safe'],
    ['<img src=x onerror=alert(1)>Pearl', 'Pearl'],
    ['Tom &amp; Jerry &lt;3 &#8364;5 &#x41; &nbsp;x', 'Tom & Jerry <3 €5 A x'],
    ['&#0;&#xD800;ok', 'ok'],
    ['Нокти    с  камъчета', 'Нокти с камъчета'],
  ])('%j → %j', (html, text) => {
    expect(plainText(html)).toBe(text);
  });
});
